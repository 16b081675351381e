"""API keys (--api-key-file) as OpenAI's SDK meets them: AuthenticationError without the right one."""

from __future__ import annotations

import openai
import pytest
import requests
from openai import OpenAI, Omit

from narrate_service import SHORT_TEXT, error_body, parse_wav, start_server

KEY = "sk-narrate-test-0123456789"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with start_server(tmp_path_factory.mktemp("serve-auth"), api_keys=["sk-other-key", KEY]) as running:
        yield running


def speak(client: OpenAI, **options):
    return client.audio.speech.create(model="tts-1", voice="alloy", input=SHORT_TEXT, response_format="wav", **options)


def test_the_right_key_works(server):
    client = OpenAI(base_url=server.v1, api_key=KEY, max_retries=0)
    wav = parse_wav(speak(client).content)
    assert wav.rate == 22050 and len(wav.pcm) > 22050


def test_a_wrong_key_is_an_authentication_error(server):
    client = OpenAI(base_url=server.v1, api_key="sk-wrong", max_retries=0)
    with pytest.raises(openai.AuthenticationError) as raised:
        speak(client)
    assert raised.value.status_code == 401
    assert raised.value.body["type"] == "authentication_error"
    assert raised.value.body["code"] == "invalid_api_key"
    # A prefix of a real key is no key either.
    with pytest.raises(openai.AuthenticationError):
        speak(OpenAI(base_url=server.v1, api_key=KEY[:-1], max_retries=0))


def test_no_key_is_an_authentication_error(server):
    client = OpenAI(base_url=server.v1, api_key="unused", max_retries=0)
    with pytest.raises(openai.AuthenticationError) as raised:
        speak(client, extra_headers={"Authorization": Omit()})
    assert raised.value.status_code == 401
    assert raised.value.body["code"] == "missing_api_key"
    assert raised.value.response.headers.get("www-authenticate") == "Bearer"


def test_other_routes_need_the_key_too(server):
    for path in ("/v1/models", "/v1/audio/voices", "/v1/books", "/metrics"):
        response = requests.get(server.http + path, timeout=30)
        assert response.status_code == 401, path
        assert error_body(response)["type"] == "authentication_error"
    client = OpenAI(base_url=server.v1, api_key=KEY, max_retries=0)
    assert {model.id for model in client.models.list()} >= {"tts-1", "tts-1-hd", "gpt-4o-mini-tts"}
    with pytest.raises(openai.AuthenticationError):
        OpenAI(base_url=server.v1, api_key="sk-wrong", max_retries=0).models.list()


def test_health_and_description_need_no_key(server):
    for path in ("/healthz", "/readyz", "/openapi.json"):
        assert requests.get(server.http + path, timeout=30).status_code == 200, path
