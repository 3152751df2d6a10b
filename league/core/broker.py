"""The embedded filesystem broker, made safe against half-written message files.

kombu's filesystem transport writes a message straight into the queue folder, where a consumer may read it
before the writer has finished; the consumer then fails to decode it and the message is lost (the worker
dies on the `JSONDecodeError`). This transport writes each message under a temporary name that no queue
matches and renames it into place once it is complete, and a consumer skips a file it cannot decode, leaving
it where it is until it is complete (a writer of another version may still be writing it).

Settings select it with `CELERY_BROKER_TRANSPORT` for `filesystem://` URLs (`league.settings.base`).
`tests/league/core/test_broker.py` records the source of the upstream methods replaced here, and fails when
a kombu upgrade changes them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from queue import Empty
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

# A message being written has this suffix: its name ends in neither `.<queue>.msg` nor anything a queue
# matches, so no consumer, size or purge sees it until the rename.
PARTIAL_SUFFIX = ".partial"


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put `payload` onto `queue`: written whole under a temporary name, then renamed into place."""
        filename = os.path.join(
            self.data_folder_out, f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        )
        partial = filename + PARTIAL_SUFFIX
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, filename)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {filename!r} to directory") from exc

    def _get(self, queue):
        """Take the oldest complete message of `queue`; a file that does not decode yet stays for later."""
        wanted = f"{queue}.msg"
        processed_folder = self.processed_folder if self.store_processed else tempfile.gettempdir()
        for filename in sorted(os.listdir(self.data_folder_in)):
            if filename.partition(".")[2] != wanted:
                continue
            path = os.path.join(self.data_folder_in, filename)
            try:
                with open(path, "rb") as file:
                    payload = loads(bytes_to_str(file.read()))
            except OSError:
                continue  # taken by another consumer meanwhile
            except ValueError:
                continue  # not complete yet: still being written
            try:
                # Moving the file claims it: of two consumers that read it, one moves it.
                shutil.move(path, processed_folder)
            except OSError:
                continue
            if not self.store_processed:
                try:
                    os.remove(os.path.join(processed_folder, filename))
                except OSError as exc:
                    raise ChannelError(f"Cannot remove file {filename!r} from the queue.") from exc
            return payload
        raise Empty()


class Transport(filesystem.Transport):
    Channel = Channel
