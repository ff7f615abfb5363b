"""Worker processes of a cold index that hold what they parsed for the checks
of its files (issue 31: a big tree with workers parsed each file it checks
twice, once for its summary in the index and once for its check).

Only the ``flake8-taskref`` command asks for them (``ProjectView.words(jobs,
hold=True)``), and only a cold index read in workers makes them.  Each holder
is forked by the index, reads, scans and summarises its share of the files as
the index's workers do (``_index_batch``), keeps the tree and summary of each
file that names a spawner, and waits.  Once the index is done, the command
gives each holder the files it holds that are to be checked; the holder takes
over what the main process knows at that point (the project's words, the
summaries it did not make itself or that the index made again with the
words, the whole summaries made meanwhile) and checks them with the command's
own function, reusing the trees it kept.  The findings are those the main
process or any other worker would give: the same text, tree, words and
summaries.

A holder that dies gives its files back (``collect``): the command checks them
as it checks the others.  Holders ignore SIGINT and end with SIGTERM (as the
index's workers do); they never write: the main process writes each fix.
"""
from __future__ import annotations

import os
import threading
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from flake8_taskref.analysis.modules import ModuleSummary
from flake8_taskref.analysis.options import Options
from flake8_taskref.project.processes import Child
from flake8_taskref.project.summarising import (
    Held,
    _index_batch,
    _index_worker_start,
    _Pruned,
    _Stamp,
    _summary_key,
)

if TYPE_CHECKING:  # pragma: no cover
    from flake8_taskref.project.view import ProjectView

__all__ = ["Holders", "index_in_workers"]

# the check of a holder's files: the command's function, its paths and settings
Work = Callable[[Sequence[str], Any], List[Any]]


def _hold(connection: Connection, view: "ProjectView", theirs: Optional[Connection]) -> None:
    """A holder: its share of the index, then the checks of the files it holds
    (``theirs``, the main process's end of the pipe, forked with it, is closed:
    the holder sees the pipe end when the main process dies, even by SIGKILL;
    ``processes.Child``)."""
    if theirs is not None:
        theirs.close()
    _index_worker_start()
    held: Held = {}
    try:
        batch, options, pruned = connection.recv()
        connection.send(_index_batch((batch, options, pruned), held))
        message = connection.recv()
    except (EOFError, OSError):  # the main process is gone, or ended this holder
        return
    if message is None:
        return
    words, own, summaries, wholes, work, paths, settings = message
    _take_over(view, words, own, summaries, wholes, held)
    del held, summaries, wholes
    try:
        connection.send(work(paths, settings))
    except (EOFError, OSError):
        return


def _take_over(
    view: "ProjectView", words: Any, own: List[str], summaries: Dict[str, Optional[ModuleSummary]],
    wholes: Dict[str, Optional[ModuleSummary]], held: Held,
) -> None:
    """What the main process's view knows when the index is done, in this
    holder's copy of it (forked while the index was being made: its lock held
    by a thread of the main process, no word known): the same summaries (of
    those this holder made, ``own``: those the index kept as they were; the
    others the index made again with the words, or dropped to be made so when
    asked), the same whole summaries and words; the trees it kept."""
    view._lock = threading.RLock()
    view._words = view._known = words
    view._summaries = {path: held[path][2] if path in held else None for path in own}  # (else: no parse)
    view._summaries.update(summaries)
    view._wholes = wholes
    for path, (text_hash, tree, _) in held.items():
        view._trees[path] = (text_hash, tree)


class _Holder(Child):
    def __init__(self, context: Any, view: "ProjectView") -> None:
        super().__init__(context, _hold, view)
        self.paths: List[str] = []  # the files it holds, to be checked
        self.busy = False


class Holders:
    """The holders of a cold index (see the module docstring)."""

    def __init__(self, fork: Any, count: int, view: "ProjectView") -> None:
        self._view = view
        self._holders: List[_Holder] = []
        try:
            for _ in range(count):
                self._holders.append(_Holder(fork, view))
        except BaseException:
            self.stop()
            raise
        # a file that names a spawner: the holder that parsed it, and its summary as the index got it
        self._made: Dict[str, Tuple[int, Optional[ModuleSummary]]] = {}

    def index(
        self, batches: List[List[_Stamp]], options: Options, pruned: _Pruned,
    ) -> Iterator[Tuple[int, List[Tuple[Any, ...]], List[_Stamp]]]:
        """Each holder's share of the index: (which holder, its results, and
        its batch if it died: to be read otherwise)."""
        for holder, batch in zip(self._holders, batches):
            try:
                holder.connection.send((batch, options, pruned))
            except OSError:
                pass  # it died: recv() says so
        waiting = dict(enumerate(self._holders))
        while waiting:
            ready = wait([holder.connection for holder in waiting.values()])
            for number, holder in list(waiting.items()):
                if holder.connection not in ready:
                    continue
                del waiting[number]
                try:
                    results: List[Tuple[Any, ...]] = holder.connection.recv()
                except (EOFError, OSError):
                    yield number, [], batches[number]
                else:
                    yield number, results, []

    def made(self, number: int, path: str, summary: Optional[ModuleSummary]) -> None:
        """The index took this summary of a file holder ``number`` parsed."""
        self._made[path] = (number, summary)

    def take(self, path: str) -> bool:
        """A file to be checked (as the command names it): given to the holder
        that parsed it, if one did (True)."""
        made = self._made.get(os.path.abspath(path))
        if made is not None:
            self._holders[made[0]].paths.append(path)
        return made is not None

    def start(self, work: Work, settings: Any) -> None:
        """Give each holder the files it holds that are to be checked, with
        what the main process knows now; the others end."""
        view = self._view
        for number, holder in enumerate(self._holders):
            if not holder.paths:
                self._end(holder)
                continue
            own = [path for path, (made_by, made) in self._made.items()
                   if made_by == number and path in view._summaries and view._summaries[path] is made]
            kept = set(own)  # (made by it, and kept by the index as they were: it has them)
            summaries = {path: summary for path, summary in view._summaries.items() if path not in kept}
            holder.busy = True  # (if it died, collect() gives its files back)
            try:
                holder.connection.send((view._words, own, summaries, dict(view._wholes), work, holder.paths,
                                        settings))
            except OSError:
                pass

    def collect(self) -> Iterator[Tuple[List[Any], List[str]]]:
        """The reports of each holder given files, as they come, and the files
        of a holder that died (to be checked otherwise)."""
        while any(holder.busy for holder in self._holders):
            ready = wait([holder.connection for holder in self._holders if holder.busy])
            for holder in self._holders:
                if not (holder.busy and holder.connection in ready):
                    continue
                holder.busy = False
                try:
                    reports: List[Any] = holder.connection.recv()
                except (EOFError, OSError):
                    yield [], holder.paths
                else:
                    yield reports, []
                self._end(holder)

    def _end(self, holder: _Holder) -> None:
        try:
            holder.connection.send(None)
        except OSError:
            pass
        holder.stop()

    def stop(self) -> None:
        """End every holder at once (after the work, or when the run stops)."""
        for holder in self._holders:
            holder.stop()


def index_in_workers(
    view: "ProjectView", fork: Any, todo: List[_Stamp], files: Dict[str, List[Any]], count: int,
    pruned: _Pruned, outside: Dict[str, List[str]], hold: bool,
) -> Optional[Holders]:
    """``ProjectView._index_in_workers``: the results in ``files``,
    ``outside`` and the view's summaries; the holders, with ``hold``."""
    batches = [todo[start::count] for start in range(count)]
    holders = pool = None
    try:
        if hold:
            holders = Holders(fork, count, view)
            parts: Iterator[Tuple[int, List[Any], List[_Stamp]]]
            parts = holders.index(batches, view.options, pruned)
        else:
            pool = fork.Pool(count, initializer=_index_worker_start)
            args = [(batch, view.options, pruned) for batch in batches]
            parts = ((0, results, []) for results in pool.imap_unordered(_index_batch, args))
        for number, results, lost in parts:
            for stamp in lost:  # a holder died: its share read here
                view._index_file(stamp, files, pruned, outside, None)
            for path, (mtime, size, ctime, inode), hashed, names, text_hash, summary, pointing in results:
                files[path] = [mtime, size, hashed, names, text_hash, ctime, inode]
                if pointing:
                    outside[path] = pointing
                if names:
                    found = None if summary is None else ModuleSummary.from_json(summary)
                    view._summaries[path] = found
                    if holders is not None:
                        holders.made(number, path, found)
                    view.cache.put("summary", _summary_key(path, []), {"hash": hashed, "summary": summary})
        if pool is not None:
            pool.close()
            pool.join()
        kept, holders = holders, None
        return kept
    finally:
        if pool is not None:
            pool.terminate()
        if holders is not None:  # (an exception: they end now)
            holders.stop()
