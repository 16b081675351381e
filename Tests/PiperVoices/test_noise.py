"""The stateless noise a Piper voice's RandomNormalLike nodes are replaced with
(Sources/narrate-worker/onnx_noise.c), compiled here as it is in the worker and called through
ctypes: a pure function of (seed, stream, index), and N(0, 1) where it should be."""

from __future__ import annotations

import ctypes
import shutil
import subprocess

import numpy as np
import pytest

from piper_support import CHECKOUT

SOURCE = CHECKOUT / "Sources" / "narrate-worker" / "onnx_noise.c"
DRAWS = 1_000_000


@pytest.fixture(scope="module")
def noise(tmp_path_factory):
    compiler = shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
    if compiler is None:
        pytest.fail("no C compiler (cc, clang or gcc) to build onnx_noise.c with")
    library = tmp_path_factory.mktemp("noise") / "libnoise.so"
    subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-I", str(SOURCE.parent), str(SOURCE), str(SOURCE.parent / "ort.c"), "-o", str(library), "-lm", "-ldl"], check=True)
    loaded = ctypes.CDLL(str(library))
    loaded.onnx_noise_key.restype = ctypes.c_uint64
    loaded.onnx_noise_key.argtypes = [ctypes.c_float, ctypes.c_int64]
    loaded.onnx_noise_fill.restype = None
    loaded.onnx_noise_fill.argtypes = [ctypes.c_uint64, ctypes.c_float, ctypes.c_float, ctypes.c_void_p, ctypes.c_size_t]
    return loaded


def draws(noise, seed: float, stream: int, count: int = DRAWS, mean: float = 0.0, scale: float = 1.0) -> np.ndarray:
    out = np.empty(count, dtype=np.float32)
    noise.onnx_noise_fill(noise.onnx_noise_key(seed, stream), mean, scale, out.ctypes.data, count)
    return out


def test_the_same_seed_and_stream_give_the_same_tensor(noise):
    first, second = draws(noise, 1.0, 0), draws(noise, 1.0, 0)
    assert np.array_equal(first, second)
    # An element depends on its index alone: a shorter tensor is the longer one's beginning.
    assert np.array_equal(draws(noise, 1.0, 0, count=1000), first[:1000])


def test_another_seed_or_stream_gives_other_noise(noise):
    base = draws(noise, 1.0, 0, count=10_000)
    for other in (draws(noise, 2.0, 0, count=10_000), draws(noise, 1.0, 1, count=10_000)):
        assert not np.array_equal(base, other)
        assert abs(np.corrcoef(base, other)[0, 1]) < 0.05


def test_a_million_draws_are_standard_normal_within_half_a_percent(noise):
    values = draws(noise, 1.0, 0).astype(np.float64)
    assert abs(values.mean()) < 0.005, values.mean()
    assert abs(values.var() - 1.0) < 0.005, values.var()
    # And shaped like it: a normal's share within one and two deviations.
    assert abs(np.mean(np.abs(values) < 1) - 0.6827) < 0.005
    assert abs(np.mean(np.abs(values) < 2) - 0.9545) < 0.005
    # Its tails too (the quantile's tail branch, below 2.4% and above 97.6%), on both sides.
    assert abs(np.mean(values > 3) - 0.00135) < 0.0003 and abs(np.mean(values < -3) - 0.00135) < 0.0003
    assert values.min() < -4 and values.max() > 4


def test_mean_and_scale_are_applied(noise):
    values = draws(noise, 3.0, 2, mean=0.5, scale=0.25).astype(np.float64)
    assert abs(values.mean() - 0.5) < 0.005 * 0.25 * 4
    assert abs(values.std() - 0.25) < 0.005 * 0.25 * 2
