"""Reference Kokoro token ids, from kokoro-onnx's own tokenizer, for checking Narrate's.

Reads UTF-8 texts from stdin, one per line (a line starting with '"' is a JSON string, so a
text can hold newlines), and prints one JSON object per line:

    {"text": ..., "phonemes": ..., "batches": [[ids of batch 1], ...]}

"phonemes" is Tokenizer.phonemize's output (espeak through phonemizer, kept to the vocabulary)
with its whitespace collapsed, as Kokoro._prepare does; "batches" is chunker.split_phonemes of
it, each batch tokenized (without the 0 pads Kokoro adds around it for the model). Uses the
vocabulary shipped with kokoro-onnx (a model carrying its own would take precedence in Kokoro);
needs no model file. Set PHONEMIZER_ESPEAK_LIBRARY to choose the libespeak-ng (e.g. Debian's).
The espeak-ng-data is espeakng_loader's (eSpeak NG 1.52's), as in kokoro-onnx, unless
--espeak-data names another (Debian's, which Narrate speaks with, to compare the algorithm
alone).

    python reference_tokens.py [--lang en-us] [--espeak-data DIR] < texts.txt
"""

import argparse
import json
import sys

from kokoro_onnx.chunker import split_phonemes
from kokoro_onnx.config import MAX_PHONEME_LENGTH, EspeakConfig
from kokoro_onnx.tokenizer import Tokenizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en-us", help="espeak language code (default en-us)")
    parser.add_argument("--espeak-data", help="an espeak-ng-data folder (default: espeakng_loader's)")
    arguments = parser.parse_args()
    lang = arguments.lang

    tokenizer = Tokenizer(EspeakConfig(data_path=arguments.espeak_data) if arguments.espeak_data else None)
    lines = sys.stdin.buffer.read().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        text = json.loads(line) if line.startswith('"') else line
        phonemes = " ".join(tokenizer.phonemize(text, lang).split())
        batches = split_phonemes(phonemes, MAX_PHONEME_LENGTH)
        record = {"text": text, "phonemes": phonemes, "batches": [tokenizer.tokenize(b) for b in batches]}
        sys.stdout.buffer.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")


if __name__ == "__main__":
    main()
