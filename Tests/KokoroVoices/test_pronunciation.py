"""Pronunciations reach a Kokoro voice's phonemizer: a PLS lexicon's IPA (written into the text
as eSpeak [[…]] spans, which phonemizer's punctuation must not cut) is what the model reads,
in `narrate phonemes` and in the audio."""

from __future__ import annotations

import json

from kokoro_support import CHECKOUT, VOICE, run_narrate

LEXICON = CHECKOUT / "Tests" / "Fixtures" / "pronunciation-book" / "OEBPS" / "lexicons" / "terms-ipa.pls"
TEXT = "I run nginx on GIF servers."


def phonemes(args: list[str], voices) -> str:
    return " ".join(batch["phonemes"] for batch in json.loads(run_narrate(["phonemes", "--json", "--voice", VOICE, *args], voices).stdout))


def test_a_lexicon_changes_what_the_model_reads(voices):
    plain = phonemes([TEXT], voices)
    lexical = phonemes(["--lexicon", str(LEXICON), TEXT], voices)
    assert "dʒɪf" in lexical and "ɡˈɪf" in plain, (plain, lexical)
    assert "ˈɛndʒɪnˈɛks" in lexical
    assert "[" not in lexical and "]" not in lexical


def test_the_audio_follows_the_lexicon_and_is_cached_apart(voices, tmp_path):
    cache = tmp_path / "cache"
    plain, lexical = tmp_path / "plain.wav", tmp_path / "lexical.wav"
    run_narrate(["say", TEXT, "--voice", VOICE, "-o", str(plain), "-q"], voices, cache=cache)
    run_narrate(["say", TEXT, "--voice", VOICE, "--lexicon", str(LEXICON), "-o", str(lexical), "-q"], voices, cache=cache)
    assert plain.read_bytes() != lexical.read_bytes()
