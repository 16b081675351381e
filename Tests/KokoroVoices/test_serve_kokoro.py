"""`narrate serve` speaking a Kokoro voice and a blend to OpenAI's `openai` SDK and Home
Assistant's `wyoming` client; the voices are listed by GET /v1/audio/voices and Wyoming's
describe; a text spoken after another by the same workers is what a fresh process makes."""

from __future__ import annotations


import numpy as np
import pytest
import requests
from openai import OpenAI
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.info import Describe, Info
from wyoming.tts import Synthesize, SynthesizeVoice

from kokoro_support import VOICE, parse_wav, run_narrate
from voice_suite import serving, wyoming

TEXT = "Good evening. The lights in the living room are now off, and the front door is locked."
BLEND = "af_alpha:0.6+am_kumo:0.4"


@pytest.fixture(scope="module")
def server(voices, tmp_path_factory):
    with serving(voices, tmp_path_factory.mktemp("serve")) as running:
        yield running


def test_the_voice_list_has_the_kokoro_voices(server):
    voices = requests.get(server.v1 + "/audio/voices", timeout=60).json()["voices"]
    alpha = [voice for voice in voices if voice["name"] == VOICE]
    assert len(alpha) == 1 and alpha[0]["kind"] == "kokoro" and alpha[0]["gender"] == "female", alpha
    assert "24000 Hz" in alpha[0]["description"] and alpha[0]["language"] == "en-US"


@pytest.mark.parametrize("voice", [VOICE, BLEND, "af_alpha(3)+am_kumo(2)"])
def test_the_openai_sdk_speaks_kokoro_voices_as_narrate_say_does(voice, server, voices, tmp_path):
    client = OpenAI(base_url=server.v1, api_key="unused", max_retries=0, timeout=600)
    wav = client.audio.speech.create(model="tts-1", voice=voice, input=TEXT, response_format="wav").content
    parsed = parse_wav(wav)
    assert parsed.rate == 24000 and parsed.seconds > 2
    output = tmp_path / "say.wav"
    run_narrate(["say", TEXT, "--voice", voice, "-o", str(output), "-q"], voices, cache=tmp_path / "cache")
    assert parse_wav(output.read_bytes()).pcm == parsed.pcm, "the service and narrate say speak the same text differently"


def test_a_text_after_another_in_the_same_workers_is_what_a_fresh_process_makes(server, voices, tmp_path):
    client = OpenAI(base_url=server.v1, api_key="unused", max_retries=0, timeout=600)
    client.audio.speech.create(model="tts-1", voice=VOICE, input="Something else entirely, first.", response_format="wav")
    after = parse_wav(client.audio.speech.create(model="tts-1", voice=VOICE, input="And then this one.", response_format="wav").content)
    output = tmp_path / "fresh.wav"
    run_narrate(["say", "And then this one.", "--voice", VOICE, "-o", str(output), "-q", "--no-cache"], voices)
    assert parse_wav(output.read_bytes()).pcm == after.pcm


def test_wyoming_describes_and_synthesizes_kokoro_voices(server):
    events = wyoming(server, [Describe()], lambda event: Info.is_type(event.type))
    program = Info.from_event(events[-1]).tts[0]
    assert VOICE in {voice.name for voice in program.voices}
    for voice in [VOICE, BLEND]:
        events = wyoming(server, [Synthesize(text=TEXT, voice=SynthesizeVoice(name=voice))], lambda event: AudioStop.is_type(event.type))
        start = next(AudioStart.from_event(event) for event in events if AudioStart.is_type(event.type))
        audio = b"".join(AudioChunk.from_event(event).audio for event in events if AudioChunk.is_type(event.type))
        assert len(audio) / 2 / start.rate > 2
        assert np.max(np.abs(np.frombuffer(audio, dtype="<i2"))) > 5000
