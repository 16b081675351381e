"""`narrate serve` speaking a Piper voice to OpenAI's `openai` SDK and Home Assistant's
`wyoming` client; the voice is listed by GET /v1/audio/voices and Wyoming's describe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import requests
from openai import BadRequestError, OpenAI
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.info import Describe, Info
from wyoming.error import Error as WyomingError
from wyoming.tts import Synthesize, SynthesizeVoice

from piper_support import VOICE, parse_wav, run_narrate, samples, voice_files
from voice_suite import serving, wyoming

TEXT = "Good evening. The lights in the living room are now off, and the front door is locked."


@pytest.fixture(scope="module")
def server(voices, tmp_path_factory):
    with serving(voices, tmp_path_factory.mktemp("serve")) as running:
        yield running


def test_the_voice_list_has_the_piper_voice(server):
    voices = requests.get(server.v1 + "/audio/voices", timeout=60).json()["voices"]
    joe = [voice for voice in voices if voice["name"] == VOICE]
    assert len(joe) == 1 and joe[0]["kind"] == "piper", joe
    assert "22050 Hz" in joe[0]["description"]


def test_the_openai_sdk_speaks_the_piper_voice_as_narrate_say_does(server, voices, tmp_path):
    client = OpenAI(base_url=server.v1, api_key="unused", max_retries=0, timeout=300)
    wav = client.audio.speech.create(model="tts-1", voice=VOICE, input=TEXT, response_format="wav").content
    parsed = parse_wav(wav)
    assert parsed.rate == 22050 and parsed.seconds > 2
    output = tmp_path / "say.wav"
    run_narrate(["say", TEXT, "--voice", VOICE, "-o", str(output), "-q"], voices, cache=tmp_path / "cache")
    assert parse_wav(output.read_bytes()).pcm == parsed.pcm, "the service and narrate say speak the same text differently"
    # pcm: OpenAI's 24 kHz
    pcm = client.audio.speech.create(model="tts-1", voice=VOICE, input=TEXT, response_format="pcm").content
    assert abs(len(pcm) / 2 / 24000 - parsed.seconds) < 0.1


def test_wyoming_describes_and_synthesizes_the_piper_voice(server):
    events = wyoming(server, [Describe()], lambda event: Info.is_type(event.type))
    program = Info.from_event(events[-1]).tts[0]
    assert VOICE in {voice.name for voice in program.voices}
    events = wyoming(server, [Synthesize(text=TEXT, voice=SynthesizeVoice(name=VOICE))], lambda event: AudioStop.is_type(event.type))
    start = next(AudioStart.from_event(event) for event in events if AudioStart.is_type(event.type))
    audio = b"".join(AudioChunk.from_event(event).audio for event in events if AudioChunk.is_type(event.type))
    assert start.rate in (22050, 24000, 16000) and len(audio) / 2 / start.rate > 2
    assert np.max(np.abs(np.frombuffer(audio, dtype="<i2"))) > 10000


def test_a_client_names_the_voice_never_its_file(server, voices):
    """The installed voice by name is served; the same model by path (in the voice folder or
    where pip put it, absolute or ../) is an unknown voice, with no server path in the answer,
    over the openai SDK, page audio's query and Wyoming, and the log escapes what was sent."""
    client = OpenAI(base_url=server.v1, api_key="unused", max_retries=0, timeout=300)
    by_name = client.audio.speech.create(model="tts-1", voice=VOICE, input="By name.", response_format="wav").content
    assert parse_wav(by_name).seconds > 0.3

    uploaded = requests.post(server.v1 + "/books", params={"filename": "short.md"}, data="# Short\n\nA page to read.\n".encode(),
                             headers={"Content-Type": "text/markdown"}, timeout=60)
    assert uploaded.status_code in (200, 201), uploaded.text
    book = uploaded.json()["id"]
    installed, _ = voice_files()
    folders = {str(voices), str(voices.resolve()), str(installed.parent), str(server.directory), "/dev"}
    depth = len(Path.cwd().parts)
    paths = [
        str(voices / f"{VOICE}.onnx"), str(installed), "../" * (depth + 2) + str(installed).lstrip("/"),
        str(voices / "nothere.onnx"), "/dev/zero", "joe\u0000", "\x1b[2Jjoe", "v" * 10240,
    ]
    for path in paths:
        with pytest.raises(BadRequestError) as refused:
            client.audio.speech.create(model="tts-1", voice=path, input="By path.", response_format="wav")
        body = refused.value.response.text
        assert refused.value.code == "voice_not_found", body
        assert not any(folder in body for folder in folders), body
        page = requests.get(f"{server.v1}/books/{book}/pages/1/audio", params={"voice": path, "format": "wav"}, timeout=60)
        assert page.status_code == 400 and page.json()["error"]["code"] == "voice_not_found", page.text
        assert not any(folder in page.text for folder in folders), page.text

    events = wyoming(server, [Synthesize(text="By path.", voice=SynthesizeVoice(name=str(installed)))],
                     lambda event: AudioStop.is_type(event.type) or WyomingError.is_type(event.type))
    error = WyomingError.from_event(events[-1])
    assert error.code == "voice_not_found" and str(installed.parent) not in error.text, error

    log = server.log.read_text(errors="replace")
    assert "voice_not_found" in log
    assert "\x1b" not in log and "\x00" not in log, "the client's raw input reached the log unescaped"
