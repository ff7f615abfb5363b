"""What the generated programs of tests/test_fix_semantics.py call: every
evaluation records itself in TRACE (as strings), tasks remember the sets that
keep them (the keep idiom's ``add_done_callback(S.discard)``, not recorded)."""
TRACE = []
TASKS = []


def reset():
    TRACE.clear()
    TASKS.clear()


def record(*event):
    TRACE.append([str(item) for item in event])


def rec(label, value=None):
    record("eval", label)
    return label if value is None else value


class Coro:
    def __init__(self, args, kwargs):
        self.text = f"job{args}{sorted(kwargs.items())}"

    def __repr__(self):
        return self.text


def job(*args, **kwargs):
    record("job", args, sorted(kwargs.items()))
    return Coro(args, kwargs)


async def agetter(value):
    record("await", value)
    return value


class Task:
    def __init__(self, kind, coro, name):
        self.text = f"Task({kind}, {coro!r}, {name})"
        self.keepers = []
        TASKS.append(self)

    def __class_getitem__(cls, item):
        return cls

    def __repr__(self):
        return self.text

    def add_done_callback(self, fn):
        owner = getattr(fn, "__self__", None)
        if isinstance(owner, set) and getattr(fn, "__name__", "") == "discard":
            self.keepers.append(owner)  # the keep idiom: not a call of the program's
            return
        record("add_done_callback", self, getattr(fn, "__name__", fn))

    def get_name(self):
        record("get_name", self)
        return "task"

    def done(self):
        record("done", self)
        return False


Future = Task


def spawn(kind, coro, name):
    record("spawn", kind, coro, name)
    return Task(kind, coro, name)


class Loop:
    def create_task(self, coro, *, name=None, context=None):
        return spawn("loop.create_task", coro, name)

    def call_soon(self, callback, *args):
        record("call_soon")
        callback(*args)  # at once: the order of the record is what matters


LOOP = Loop()


def get_loop(which):
    record("get_loop", which)
    return LOOP


class Context:
    def __init__(self, label):
        self.label = label

    def __enter__(self):
        record("enter", self.label)
        return self

    def __exit__(self, *exc):
        record("exit", self.label)
        return False


def decorate(label):
    def apply(function):
        record("decorate", label, function.__name__)
        return function
    return apply


def report(task):
    record("report", task)


def show(*values):
    record("show", *values)


class Box:
    """Attribute reads and writes record themselves (properties run code)."""

    def __getattr__(self, name):
        record("getattr", name)
        if name == "show":
            return show
        return name

    def __setattr__(self, name, value):
        record("setattr", name)
        object.__setattr__(self, name, value)


box = Box()


def drive(coro):
    """Run a coroutine that never suspends (the fakes' awaits finish at once)."""
    try:
        while True:
            coro.send(None)
    except StopIteration:
        pass


def unkept():
    """How many tasks are in no set that keeps them."""
    return sum(1 for task in TASKS if not any(task in kept for kept in task.keepers))
