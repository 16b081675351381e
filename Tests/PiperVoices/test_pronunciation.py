"""Pronunciations reach a Piper voice's phonemizer: a PLS lexicon's IPA is what the model
reads for its words, in `narrate phonemes` and in the audio."""

from __future__ import annotations

import json

from piper_support import CHECKOUT, VOICE, run_narrate

LEXICON = CHECKOUT / "Tests" / "Fixtures" / "pronunciation-book" / "OEBPS" / "lexicons" / "terms-ipa.pls"
TEXT = "I run nginx on GIF servers."


def test_a_lexicon_changes_what_the_model_reads(voices, tmp_path):
    plain = json.loads(run_narrate(["phonemes", "--json", "--voice", VOICE, TEXT], voices).stdout)
    lexical = json.loads(run_narrate(["phonemes", "--json", "--voice", VOICE, "--lexicon", str(LEXICON), TEXT], voices).stdout)
    assert "dʒɪf" in lexical[0]["phonemes"] and "ɡˈɪf" in plain[0]["phonemes"], (plain, lexical)
    assert "ˈɛndʒɪnˈɛks" in lexical[0]["phonemes"]
    assert lexical[0]["text"] == TEXT


def test_the_audio_follows_the_lexicon_and_is_cached_apart(voices, tmp_path):
    cache = tmp_path / "cache"
    plain, lexical = tmp_path / "plain.wav", tmp_path / "lexical.wav"
    run_narrate(["say", TEXT, "--voice", VOICE, "-o", str(plain), "-q"], voices, cache=cache)
    run_narrate(["say", TEXT, "--voice", VOICE, "--lexicon", str(LEXICON), "-o", str(lexical), "-q"], voices, cache=cache)
    assert plain.read_bytes() != lexical.read_bytes()
