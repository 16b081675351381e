"""Home Assistant's `wyoming` package as the client of the Wyoming TCP service."""

from __future__ import annotations

import asyncio

import pytest
import requests
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.error import Error
from wyoming.event import Event
from wyoming.info import Describe, Info
from wyoming.ping import Ping, Pong
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop, SynthesizeStopped, SynthesizeVoice

from narrate_service import SHORT_TEXT, parse_wav

EVENT_TIMEOUT = 60


def run(server, events: list, until) -> list[Event]:
    """Connects, writes `events`, and reads events until `until(event)` is true."""

    async def session() -> list[Event]:
        received: list[Event] = []
        async with AsyncTcpClient(server.wyoming_host, server.wyoming_port) as client:
            for event in events:
                await client.write_event(event.event())
            while True:
                event = await asyncio.wait_for(client.read_event(), EVENT_TIMEOUT)
                assert event is not None, f"the connection closed after {[e.type for e in received]}"
                received.append(event)
                if until(event):
                    return received

    return asyncio.run(session())


def http_wav_pcm(server, text: str, voice: str) -> bytes:
    response = requests.post(
        server.v1 + "/audio/speech",
        json={"model": "tts-1", "input": text, "voice": voice, "response_format": "wav"},
        timeout=60,
    )
    assert response.status_code == 200, response.text
    return parse_wav(response.content).pcm


def audio_of(events: list[Event]) -> tuple[AudioStart, bytes]:
    """The one audio-start, the concatenated chunks (each in the start's format), one audio-stop."""
    types = [event.type for event in events]
    assert types.count("audio-start") == 1 and types.count("audio-stop") == 1, types
    start_at, stop_at = types.index("audio-start"), types.index("audio-stop")
    assert start_at < stop_at
    assert all(t == "audio-chunk" for t in types[start_at + 1:stop_at]), types
    assert "audio-chunk" not in types[:start_at] + types[stop_at:], types
    start = AudioStart.from_event(events[start_at])
    pcm = b""
    for event in events[start_at + 1:stop_at]:
        chunk = AudioChunk.from_event(event)
        assert (chunk.rate, chunk.width, chunk.channels) == (start.rate, start.width, start.channels)
        assert len(chunk.audio) % 2 == 0 and chunk.audio
        pcm += chunk.audio
    AudioStop.from_event(events[stop_at])
    return start, pcm


def test_describe_is_a_tts_program_with_voices(server):
    events = run(server, [Describe()], lambda event: Info.is_type(event.type))
    info = Info.from_event(events[-1])
    assert len(info.tts) == 1
    program = info.tts[0]
    assert program.installed
    assert program.supports_synthesize_streaming
    assert program.attribution.name
    names = {voice.name for voice in program.voices}
    assert {"alloy", "ash", "coral", "nova", "shimmer"} <= names, sorted(names)
    assert len(names) > 100, "the eSpeak voices are missing"
    alloy = next(voice for voice in program.voices if voice.name == "alloy")
    assert alloy.installed and alloy.languages and alloy.languages[0].startswith("en")
    languages = {language for voice in program.voices for language in voice.languages}
    assert {"fr", "de"} <= {language.split("-")[0] for language in languages}, sorted(languages)
    assert not info.asr and not info.wake


def test_ping(server):
    events = run(server, [Ping(text="hello")], lambda event: Pong.is_type(event.type))
    assert events[-1].type == "pong"


@pytest.mark.parametrize("voice", ["alloy", "en-us"])
def test_synthesize_is_the_http_wav(server, voice):
    events = run(
        server,
        [Synthesize(text=SHORT_TEXT, voice=SynthesizeVoice(name=voice))],
        lambda event: AudioStop.is_type(event.type) or Error.is_type(event.type),
    )
    start, pcm = audio_of(events)
    assert (start.rate, start.width, start.channels) == (22050, 2, 1)
    assert len([e for e in events if e.type == "audio-chunk"]) > 1
    assert pcm == http_wav_pcm(server, SHORT_TEXT, voice)


def test_synthesize_without_a_voice_uses_the_default(server):
    events = run(server, [Synthesize(text=SHORT_TEXT)], lambda event: AudioStop.is_type(event.type) or Error.is_type(event.type))
    _, pcm = audio_of(events)
    assert pcm == http_wav_pcm(server, SHORT_TEXT, "narrator")  # serve's --voice default


def test_synthesize_unknown_voice_is_an_error_event(server):
    events = run(
        server,
        [Synthesize(text=SHORT_TEXT, voice=SynthesizeVoice(name="no-such-voice"))],
        lambda event: Error.is_type(event.type) or AudioStop.is_type(event.type),
    )
    assert events[-1].type == "error", [e.type for e in events]
    error = Error.from_event(events[-1])
    assert error.text and error.code


def test_streaming_synthesis_ends_with_synthesize_stopped(server):
    sentences = ["Hello from the streaming side.", "This sentence arrives in", " two pieces.", "And this is the last one"]
    # What Home Assistant sends: start, text chunks, the whole text once more as a plain
    # synthesize (for servers without streaming, ignored by those with it), stop.
    events = [SynthesizeStart(voice=SynthesizeVoice(name="alloy"))]
    events += [SynthesizeChunk(text=sentences[0] + " "), SynthesizeChunk(text=sentences[1]), SynthesizeChunk(text=sentences[2] + " ")]
    events += [SynthesizeChunk(text=sentences[3])]
    events += [Synthesize(text=" ".join(sentences), voice=SynthesizeVoice(name="alloy")), SynthesizeStop()]
    received = run(server, events, lambda event: SynthesizeStopped.is_type(event.type) or Error.is_type(event.type))
    types = [event.type for event in received]
    assert types[-1] == "synthesize-stopped", types
    assert types[-2] == "audio-stop", types
    start, pcm = audio_of(received[:-1])
    assert (start.rate, start.width, start.channels) == (22050, 2, 1)
    # The audio is every sentence once (not twice: the compatibility synthesize is ignored).
    whole = http_wav_pcm(server, " ".join(sentences), "alloy")
    assert 0.7 * len(whole) < len(pcm) < 1.5 * len(whole), (len(pcm), len(whole))


def test_streaming_synthesis_of_nothing(server):
    received = run(
        server,
        [SynthesizeStart(voice=SynthesizeVoice(name="alloy")), SynthesizeStop()],
        lambda event: SynthesizeStopped.is_type(event.type) or Error.is_type(event.type),
    )
    types = [event.type for event in received]
    assert types == ["audio-start", "audio-stop", "synthesize-stopped"], types
