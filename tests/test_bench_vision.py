"""bench/bench_vision.py's candidate model files: a bench that silently read with the pip count alone
would score the wrong reader, so a file it cannot use stops it, named."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from vision_helpers import load_script

from vision import facenet

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_vision.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script(BENCH)


def test_a_candidate_model_file_that_is_missing_stops_the_bench_by_name(bench, tmp_path: Path) -> None:
    missing = tmp_path / "retrained.onnx"
    with pytest.raises(SystemExit, match=r"--upright: no such file: .*retrained\.onnx"):
        bench.candidate_models(None, missing)


def test_a_candidate_model_file_that_is_not_a_classifier_stops_the_bench(bench, tmp_path: Path) -> None:
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not an onnx graph" * 50)
    with pytest.raises(SystemExit, match=r"--classifier: .*junk\.onnx is not a face classifier"):
        bench.candidate_models(junk, None)


def test_usable_candidate_files_become_the_readers_model_arguments(bench) -> None:
    models = bench.candidate_models(facenet.DEFAULT_MODEL, facenet.UPRIGHT_MODEL)
    assert models == {"classifier": facenet.DEFAULT_MODEL, "upright": facenet.UPRIGHT_MODEL}
    assert bench.candidate_models(None, None) == {}
