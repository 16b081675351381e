// Voices: the voice setting of a request, setting it in eSpeak (which a zygote does once,
// before it forks any child), and reading the fields of a voice's description. It calls no
// other file of the worker.

#include <espeak-ng/speak_lib.h>

#include <string.h>

#include "voices.h"

voice_settings settings_of(const narrate_worker_request *request, const char *voice) {
    voice_settings settings;
    memset(&settings, 0, sizeof settings);
    memcpy(settings.voice, voice, strlen(voice) + 1);
    settings.rate = request->rate;
    settings.volume = request->volume;
    settings.pitch = request->pitch;
    settings.word_gap = request->word_gap;
    return settings;
}

// As the espeak-ng program does: a voice name first, else the name as a language; then the
// parameters. Returns DONE, VOICE_NOT_FOUND or BAD_PARAMETER (with `detail`).
uint32_t apply_voice(const voice_settings *settings, int32_t *detail) {
    espeak_ERROR status = espeak_SetVoiceByName(settings->voice);
    if (status != EE_OK) {
        espeak_VOICE properties;
        memset(&properties, 0, sizeof properties);
        properties.languages = settings->voice;
        status = espeak_SetVoiceByProperties(&properties);
    }
    if (status != EE_OK) return NARRATE_WORKER_VOICE_NOT_FOUND;
    const struct { espeak_PARAMETER parameter; int32_t value; } parameters[] = {
        {espeakRATE, settings->rate}, {espeakVOLUME, settings->volume}, {espeakPITCH, settings->pitch}, {espeakWORDGAP, settings->word_gap},
    };
    for (int index = 0; index < 4; index++) {
        if (espeak_SetParameter(parameters[index].parameter, parameters[index].value, 0) != EE_OK) {
            *detail = index + 1;
            return NARRATE_WORKER_BAD_PARAMETER;
        }
    }
    return NARRATE_WORKER_DONE;
}

int split_fields(char *text, char **fields, int capacity) {
    int count = 0;
    char *at = text;
    while (count < capacity) {
        fields[count++] = at;
        char *separator = strchr(at, 0x1F);
        if (!separator) break;
        *separator = 0;
        at = separator + 1;
    }
    return count;
}
