"""OpenAI's official `openai` package against POST /v1/audio/speech."""

from __future__ import annotations

import base64
import json
from concurrent.futures import ThreadPoolExecutor

import openai
import pytest
import requests
from openai import OpenAI

from narrate_service import LONG_TEXT, SHORT_TEXT, ffprobe, narrate_say, parse_wav


@pytest.fixture(scope="module")
def client(server) -> OpenAI:
    # No keys on this server: the SDK insists on one, the service ignores it.
    return OpenAI(base_url=server.v1, api_key="unused", max_retries=0, timeout=120)


@pytest.fixture(scope="module")
def speech(client):
    """Each (text, voice, format) asked once per module."""
    made: dict[tuple, bytes] = {}

    def get(text: str, voice: str, response_format: str) -> bytes:
        key = (text, voice, response_format)
        if key not in made:
            made[key] = client.audio.speech.create(model="tts-1", voice=voice, input=text, response_format=response_format).content
        return made[key]

    return get


@pytest.mark.parametrize("text", [SHORT_TEXT, LONG_TEXT], ids=["one-chunk", "several-chunks"])
@pytest.mark.parametrize("voice", ["alloy", "en-us"])
def test_wav_is_what_narrate_say_writes(speech, tmp_path, text, voice):
    served = parse_wav(speech(text, voice, "wav"))
    said = parse_wav(narrate_say(text, voice, tmp_path))
    assert (served.rate, served.channels, served.bits) == (22050, 1, 16)
    assert (said.rate, said.channels, said.bits) == (22050, 1, 16)
    assert len(served.pcm) == len(said.pcm), f"{served.seconds:.3f} s served, {said.seconds:.3f} s from narrate say"
    assert served.pcm == said.pcm
    # Streamed: the sizes are true, or 0xFFFFFFFF ("to the end") when they were not known yet.
    assert served.data_size in (len(served.pcm), 0xFFFFFFFF)
    if text is SHORT_TEXT:
        # One chunk: the sizes are known and true.
        assert served.data_size == len(served.pcm)
        assert served.riff_size == 36 + len(served.pcm)


@pytest.mark.parametrize("text", [SHORT_TEXT, LONG_TEXT], ids=["one-chunk", "several-chunks"])
def test_pcm_is_24khz_s16le_of_the_same_length(speech, text):
    wav = parse_wav(speech(text, "alloy", "wav"))
    pcm = speech(text, "alloy", "pcm")
    assert len(pcm) % 2 == 0
    expected = wav.seconds * 24000 * 2
    assert abs(len(pcm) - expected) <= 0.02 * expected + 200, f"{len(pcm)} bytes of pcm; {wav.seconds:.3f} s of wav gives {expected:.0f}"
    # Not silence: resampled speech.
    samples = memoryview(pcm).cast("h")
    assert max(abs(s) for s in samples[::7]) > 1000


@pytest.mark.parametrize(
    "response_format, codec",
    [("mp3", "mp3"), ("flac", "flac"), ("opus", "opus"), ("aac", "aac")],
)
def test_compressed_formats_decode_with_ffprobe(speech, tmp_path, response_format, codec):
    wav = parse_wav(speech(SHORT_TEXT, "alloy", "wav"))
    data = speech(SHORT_TEXT, "alloy", response_format)
    path = tmp_path / f"speech.{response_format}"
    path.write_bytes(data)
    info = ffprobe(path)
    assert info["codec"] == codec, info
    assert info["channels"] == 1, info
    tolerance = max(0.15, 0.03 * wav.seconds)
    assert abs(info["decoded_duration"] - wav.seconds) <= tolerance, f"{info} vs the wav's {wav.seconds:.3f} s"
    if info["duration"] is not None:  # a streamed FLAC cannot say its length up front
        assert abs(info["duration"] - wav.seconds) <= tolerance, f"{info} vs the wav's {wav.seconds:.3f} s"


def test_models(client):
    assert {model.id for model in client.models.list()} == {"tts-1", "tts-1-hd", "gpt-4o-mini-tts", "narrate"}
    assert client.models.retrieve("tts-1").id == "tts-1"
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("whisper-1")


def test_default_format_is_mp3(client, tmp_path):
    response = client.audio.speech.with_raw_response.create(model="gpt-4o-mini-tts", voice="coral", input="Hello.")
    assert response.headers["content-type"] == "audio/mpeg"
    path = tmp_path / "default.mp3"
    path.write_bytes(response.content)
    assert ffprobe(path)["codec"] == "mp3"


def test_streaming_response_iterates_the_same_bytes(client, speech):
    whole = speech(LONG_TEXT, "alloy", "wav")
    parts = []
    with client.audio.speech.with_streaming_response.create(
        model="tts-1-hd", voice="alloy", input=LONG_TEXT, response_format="wav"
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"] == "audio/wav"
        assert response.headers.get("etag")
        for part in response.iter_bytes():
            parts.append(part)
    streamed = b"".join(parts)
    assert len(parts) > 1
    assert streamed == whole


def test_voice_object_and_instructions_are_accepted(client, speech):
    # OpenAI's custom voice shape {"id": ...}, and gpt-4o-mini-tts' instructions.
    data = client.audio.speech.create(
        model="gpt-4o-mini-tts", voice={"id": "alloy"}, input=SHORT_TEXT, response_format="wav",
        instructions="Speak calmly.",
    ).content
    assert parse_wav(data).pcm == parse_wav(speech(SHORT_TEXT, "alloy", "wav")).pcm


def test_speed_changes_the_duration(client, speech):
    normal = parse_wav(speech(SHORT_TEXT, "alloy", "wav")).seconds
    fast = parse_wav(client.audio.speech.create(model="tts-1", voice="alloy", input=SHORT_TEXT, response_format="wav", speed=2.0).content).seconds
    slow = parse_wav(client.audio.speech.create(model="tts-1", voice="alloy", input=SHORT_TEXT, response_format="wav", speed=0.5).content).seconds
    assert fast < normal * 0.75, (fast, normal)
    assert slow > normal * 1.4, (slow, normal)


def test_etag_and_if_none_match(server):
    # The SDK treats 304 as an error (APIStatusError), so this one goes through requests.
    body = {"model": "tts-1", "voice": "alloy", "input": SHORT_TEXT, "response_format": "flac"}
    url = server.v1 + "/audio/speech"
    first = requests.post(url, json=body, timeout=60)
    assert first.status_code == 200
    tag = first.headers["etag"]
    assert tag.startswith('"') and tag.endswith('"')
    again = requests.post(url, json=body, headers={"If-None-Match": tag}, timeout=60)
    assert again.status_code == 304
    assert again.headers["etag"] == tag
    assert again.content == b""
    assert requests.post(url, json=body, headers={"If-None-Match": f'"other", W/{tag}'}, timeout=60).status_code == 304
    other = requests.post(url, json={**body, "response_format": "mp3"}, headers={"If-None-Match": tag}, timeout=60)
    assert other.status_code == 200 and other.headers["etag"] != tag


@pytest.mark.parametrize("response_format", ["wav", "pcm", "mp3", "flac", "opus", "aac"])
def test_same_request_same_etag_same_bytes(server, response_format):
    """A strong ETag promises the same bytes: asking twice must give them."""
    body = {"model": "tts-1", "voice": "alloy", "input": SHORT_TEXT, "response_format": response_format}
    url = server.v1 + "/audio/speech"
    first = requests.post(url, json=body, timeout=60)
    second = requests.post(url, json=body, timeout=60)
    assert first.status_code == second.status_code == 200
    assert first.headers["etag"] == second.headers["etag"]
    assert not first.headers["etag"].startswith("W/")
    assert len(first.content) == len(second.content)
    differing = sum(a != b for a, b in zip(first.content, second.content))
    assert differing == 0, (
        f"{response_format}: two responses with the strong ETag {first.headers['etag']} differ in {differing} "
        f"of {len(first.content)} bytes"
    )


def _bad_request(client, **overrides) -> openai.BadRequestError:
    arguments = {"model": "tts-1", "voice": "alloy", "input": SHORT_TEXT, "response_format": "wav", **overrides}
    with pytest.raises(openai.BadRequestError) as raised:
        client.audio.speech.create(**arguments)
    error = raised.value
    assert error.status_code == 400
    assert isinstance(error.body, dict) and error.body.get("type") == "invalid_request_error", error.body
    assert error.body.get("message")
    return error


def test_unknown_voice_is_bad_request(client):
    error = _bad_request(client, voice="no-such-voice")
    assert error.body["param"] == "voice"
    assert error.body["code"] == "voice_not_found"


@pytest.mark.parametrize("speed", [9, 0.1])
def test_speed_out_of_range_is_bad_request(client, speed):
    error = _bad_request(client, speed=speed)
    assert error.body["param"] == "speed"


@pytest.mark.parametrize("text", ["", "   \n\t "], ids=["empty", "blank"])
def test_empty_input_is_bad_request(client, text):
    error = _bad_request(client, input=text)
    assert error.body["param"] == "input"


def test_too_long_input_is_bad_request(client):
    error = _bad_request(client, input="a" * 4097)
    assert error.body["param"] == "input"
    assert error.body["code"] == "input_too_long"


def test_unknown_model_and_format_are_bad_requests(client):
    assert _bad_request(client, model="whisper-1").body["param"] == "model"
    assert _bad_request(client, extra_body={"response_format": "ogg"}).body["param"] == "response_format"


def test_sse_stream_events(client, speech):
    audio = b""
    kinds = []
    with client.audio.speech.with_streaming_response.create(
        model="gpt-4o-mini-tts", voice="alloy", input=SHORT_TEXT, response_format="wav", stream_format="sse"
    ) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if not line.startswith("data: "):
                continue
            event = json.loads(line[6:])
            kinds.append(event["type"])
            if event["type"] == "speech.audio.delta":
                audio += base64.b64decode(event["audio"])
            elif event["type"] == "speech.audio.done":
                assert event["usage"]["input_tokens"] > 0
            elif event["type"] == "speech.word":
                assert event["text_length"] > 0 and event["start"] >= 0
    assert kinds[-1] == "speech.audio.done"
    assert "speech.audio.delta" in kinds and "speech.word" in kinds
    assert parse_wav(audio).pcm == parse_wav(speech(SHORT_TEXT, "alloy", "wav")).pcm


def test_every_listed_voice_can_speak(client, server):
    """Each voice GET /v1/audio/voices lists (and Wyoming's info) is a name the speech API takes."""
    voices = requests.get(server.v1 + "/audio/voices", timeout=60).json()["voices"]
    assert len(voices) > 100
    kinds = {voice["kind"] for voice in voices}
    assert kinds == {"openai", "preset", "espeak"}, kinds

    def refusal(voice: dict) -> str | None:
        try:
            client.audio.speech.create(model="tts-1", voice=voice["name"], input="Hi.", response_format="wav")
        except openai.APIStatusError as error:
            message = error.body.get("message") if isinstance(error.body, dict) else error.body
            return f"{voice['name']!r} ({voice['voice']}): {error.status_code} {message}"
        return None

    with ThreadPoolExecutor(max_workers=3) as pool:
        refused = [r for r in pool.map(refusal, voices) if r]
    assert not refused, "listed voices the speech API refuses:\n" + "\n".join(refused)
