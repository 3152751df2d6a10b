"""The embedded filesystem broker: a message appears in its queue only whole, and a file that does not
decode yet (a writer still writing it) is skipped, not lost, and taken once it is complete."""

import hashlib
import inspect
import json
import os

import pytest
from kombu import Connection
from kombu.transport import filesystem

from league.core import broker

# The upstream methods that league.core.broker.Channel replaces, as kombu (pinned in requirements/base.txt)
# ships them. When an upgrade changes one, read the new version and carry its change over before updating
# the hash here.
UPSTREAM_SOURCE_SHA256 = {
    "_put": "a88e2ceb3927a99ac69f97f5d2dec340e7ed22ae16f7ec8e33fb1716bc25b8b5",
    "_get": "ecaf5682c3d5145860fabbdc8c62e07f1095d35e779e7e2bf25c06b888b946b0",
}


@pytest.mark.parametrize("method", sorted(UPSTREAM_SOURCE_SHA256))
def test_the_replaced_upstream_method_is_the_one_recorded(method):
    source = inspect.getsource(getattr(filesystem.Channel, method))
    assert hashlib.sha256(source.encode()).hexdigest() == UPSTREAM_SOURCE_SHA256[method], (
        f"kombu's filesystem Channel.{method} changed: review league/core/broker.py against it"
    )


@pytest.fixture
def folder(tmp_path):
    """A broker folder of the test's own (queue names differ between tests too: kombu keeps the bindings
    it has declared in the process, and would not declare them again in a new folder)."""
    for name in ("queue", "processed", "control"):
        (tmp_path / name).mkdir()
    return tmp_path


def connection(folder) -> Connection:
    return Connection(
        "filesystem://localhost/",
        transport="league.core.broker:Transport",
        transport_options={
            "data_folder_in": str(folder / "queue"),
            "data_folder_out": str(folder / "queue"),
            "processed_folder": str(folder / "processed"),
            "control_folder": str(folder / "control"),
            "store_processed": False,
        },
    )


def test_a_message_is_put_whole_under_its_queue_name_and_read_back(folder):
    with connection(folder) as conn:
        assert isinstance(conn.default_channel, broker.Channel)
        queue = conn.SimpleQueue("whole")
        queue.put({"table": 7})
        names = os.listdir(folder / "queue")
        assert len(names) == 1 and names[0].endswith(".whole.msg")
        assert not any(name.endswith(broker.PARTIAL_SUFFIX) for name in names)
        message = queue.get(timeout=1)
        assert message.payload == {"table": 7}
        message.ack()
        assert os.listdir(folder / "queue") == []
        queue.close()


def test_a_half_written_file_is_skipped_until_complete_and_then_taken(folder):
    with connection(folder) as conn:
        queue = conn.SimpleQueue("half")
        queue.put({"table": 1})
        (name,) = os.listdir(folder / "queue")
        whole = (folder / "queue" / name).read_bytes()
        half = len(whole) // 2
        (folder / "queue" / name).write_bytes(whole[:half])  # a writer that has not finished
        queue.put({"table": 2})

        message = queue.get(timeout=1)
        assert message.payload == {"table": 2}
        message.ack()
        assert os.listdir(folder / "queue") == [name]
        with pytest.raises(queue.Empty):
            queue.get(timeout=0.2)

        with open(folder / "queue" / name, "ab") as file:
            file.write(whole[half:])
        message = queue.get(timeout=1)
        assert message.payload == {"table": 1}
        message.ack()
        assert os.listdir(folder / "queue") == []
        queue.close()


def test_a_file_of_another_queue_or_still_partial_is_not_counted(folder):
    with connection(folder) as conn:
        queue = conn.SimpleQueue("counted")
        (folder / "queue" / f"1_x.counted.msg{broker.PARTIAL_SUFFIX}").write_text(json.dumps({"body": "x"}))
        assert queue.qsize() == 0
        queue.put({"table": 3})
        assert queue.qsize() == 1
        queue.close()
