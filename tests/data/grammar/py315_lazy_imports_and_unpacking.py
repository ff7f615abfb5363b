"""Grammar coverage: PEP 810 lazy imports and PEP 798 unpacking in
comprehensions (3.15)."""
lazy import asyncio
lazy import asyncio.tasks as tasks_module
lazy from asyncio import create_task, ensure_future as spawn


async def job(value: object = None) -> object:
    await asyncio.sleep(0)
    return value


async def comprehensions(groups: "list[list[asyncio.Task[object]]]", maps: "list[dict[str, object]]") -> None:
    flat = [*group for group in groups]
    merged = {**mapping for mapping in maps}
    unique = {*group for group in groups}
    lazy_gen = (*group for group in groups)
    print(flat, merged, unique, list(lazy_gen))
    made = [*[create_task(job()), spawn(job())] for _ in range(2)]
    await asyncio.gather(*made)
    {**{"k": tasks_module.create_task(job())} for _ in range(2)}
    [*(create_task(job()),) for _ in range(2)]
