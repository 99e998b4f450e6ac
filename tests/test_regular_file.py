"""The one reader of small outside files (records, configuration, settings, images): only a regular
file, only up to its limit, and a FIFO never waited on."""

import os
import threading

import pytest

from companion.regular_file import FileTooLong, NotRegularFile, read_regular_file


def test_a_fifo_a_device_and_a_directory_are_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[BaseException] = []

    def attempt() -> None:
        try:
            read_regular_file(fifo, 100)
        except NotRegularFile as exc:
            got.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(10)
    assert got, "a FIFO without a writer must not hang the reader"
    for path in ("/dev/zero", tmp_path):
        with pytest.raises(NotRegularFile, match="it is not a regular file"):
            read_regular_file(path, 100)


def test_a_file_of_the_limit_is_read_and_one_byte_more_is_refused_with_its_size(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 2048)
    assert read_regular_file(path, 2048) == b"x" * 2048
    with pytest.raises(FileTooLong, match="it is longer than 2047 bytes") as refused:
        read_regular_file(path, 2047)
    assert refused.value.size == 2048 and refused.value.limit == 2047
    with pytest.raises(FileTooLong, match="it is longer than 1 KiB"):
        read_regular_file(path, 1024)


def test_a_missing_file_is_an_os_error_callers_can_tell_apart(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_regular_file(tmp_path / "missing", 100)
