"""Grammar coverage: deep (but pyflakes-safe) nesting of blocks, functions and expressions."""
import asyncio
from typing import Any


async def job(*values: Any) -> Any:
    await asyncio.sleep(0)
    return values


async def level_0(flag: bool) -> Any:
    asyncio.create_task(job(0))
    def level_1(flag: bool) -> Any:
        asyncio.create_task(job(1))
        async def level_2(flag: bool) -> Any:
            asyncio.create_task(job(2))
            def level_3(flag: bool) -> Any:
                asyncio.create_task(job(3))
                async def level_4(flag: bool) -> Any:
                    asyncio.create_task(job(4))
                    def level_5(flag: bool) -> Any:
                        asyncio.create_task(job(5))
                        async def level_6(flag: bool) -> Any:
                            asyncio.create_task(job(6))
                            def level_7(flag: bool) -> Any:
                                asyncio.create_task(job(7))
                                async def level_8(flag: bool) -> Any:
                                    asyncio.create_task(job(8))
                                    def level_9(flag: bool) -> Any:
                                        asyncio.create_task(job(9))
                                        async def level_10(flag: bool) -> Any:
                                            asyncio.create_task(job(10))
                                            def level_11(flag: bool) -> Any:
                                                asyncio.create_task(job(11))
                                                async def level_12(flag: bool) -> Any:
                                                    asyncio.create_task(job(12))
                                                    def level_13(flag: bool) -> Any:
                                                        asyncio.create_task(job(13))
                                                        async def level_14(flag: bool) -> Any:
                                                            asyncio.create_task(job(14))
                                                            def level_15(flag: bool) -> Any:
                                                                asyncio.create_task(job(15))
                                                                async def level_16(flag: bool) -> Any:
                                                                    asyncio.create_task(job(16))
                                                                    def level_17(flag: bool) -> Any:
                                                                        asyncio.create_task(job(17))
                                                                        async def level_18(flag: bool) -> Any:
                                                                            asyncio.create_task(job(18))
                                                                            def level_19(flag: bool) -> Any:
                                                                                asyncio.create_task(job(19))
                                                                                async def level_20(flag: bool) -> Any:
                                                                                    asyncio.create_task(job(20))
                                                                                    def level_21(flag: bool) -> Any:
                                                                                        asyncio.create_task(job(21))
                                                                                        async def level_22(flag: bool) -> Any:
                                                                                            asyncio.create_task(job(22))
                                                                                            def level_23(flag: bool) -> Any:
                                                                                                asyncio.create_task(job(23))
                                                                                                async def level_24(flag: bool) -> Any:
                                                                                                    asyncio.create_task(job(24))
                                                                                                    def level_25(flag: bool) -> Any:
                                                                                                        asyncio.create_task(job(25))
                                                                                                        async def level_26(flag: bool) -> Any:
                                                                                                            asyncio.create_task(job(26))
                                                                                                            def level_27(flag: bool) -> Any:
                                                                                                                asyncio.create_task(job(27))
                                                                                                                async def level_28(flag: bool) -> Any:
                                                                                                                    asyncio.create_task(job(28))
                                                                                                                    def level_29(flag: bool) -> Any:
                                                                                                                        asyncio.create_task(job(29))
                                                                                                                        return asyncio.ensure_future(job())


async def blocks(flag: bool, items: Any, lock: asyncio.Lock) -> None:
    for item in items:
        asyncio.create_task(job(0))
        async with lock:
            asyncio.create_task(job(1))
            while flag:
                asyncio.create_task(job(2))
                if flag:
                    asyncio.create_task(job(3))
                    try:
                        asyncio.create_task(job(4))
                        for item in items:
                            asyncio.create_task(job(5))
                            async with lock:
                                asyncio.create_task(job(6))
                                while flag:
                                    asyncio.create_task(job(7))
                                    if flag:
                                        asyncio.create_task(job(8))
                                        try:
                                            asyncio.create_task(job(9))
                                            for item in items:
                                                asyncio.create_task(job(10))
                                                async with lock:
                                                    asyncio.create_task(job(11))
                                                    while flag:
                                                        asyncio.create_task(job(12))
                                                        if flag:
                                                            asyncio.create_task(job(13))
                                                            try:
                                                                asyncio.create_task(job(14))
                                                                for item in items:
                                                                    asyncio.create_task(job(15))
                                                                    async with lock:
                                                                        asyncio.create_task(job(16))
                                                                        while flag:
                                                                            asyncio.create_task(job(17))
                                                                            if flag:
                                                                                asyncio.create_task(job(18))
                                                                                if flag or 0:
                                                                                    if flag or 1:
                                                                                        if flag or 2:
                                                                                            if flag or 3:
                                                                                                if flag or 4:
                                                                                                    if flag or 5:
                                                                                                        if flag or 6:
                                                                                                            if flag or 7:
                                                                                                                if flag or 8:
                                                                                                                    if flag or 9:
                                                                                                                        if flag or 10:
                                                                                                                            if flag or 11:
                                                                                                                                if flag or 12:
                                                                                                                                    if flag or 13:
                                                                                                                                        if flag or 14:
                                                                                                                                            if flag or 15:
                                                                                                                                                if flag or 16:
                                                                                                                                                    if flag or 17:
                                                                                                                                                        if flag or 18:
                                                                                                                                                            if flag or 19:
                                                                                                                                                                if flag or 20:
                                                                                                                                                                    if flag or 21:
                                                                                                                                                                        if flag or 22:
                                                                                                                                                                            if flag or 23:
                                                                                                                                                                                if flag or 24:
                                                                                                                                                                                    if flag or 25:
                                                                                                                                                                                        if flag or 26:
                                                                                                                                                                                            if flag or 27:
                                                                                                                                                                                                if flag or 28:
                                                                                                                                                                                                    if flag or 29:
                                                                                                                                                                                                        if flag or 30:
                                                                                                                                                                                                            if flag or 31:
                                                                                                                                                                                                                if flag or 32:
                                                                                                                                                                                                                    if flag or 33:
                                                                                                                                                                                                                        if flag or 34:
                                                                                                                                                                                                                            if flag or 35:
                                                                                                                                                                                                                                if flag or 36:
                                                                                                                                                                                                                                    if flag or 37:
                                                                                                                                                                                                                                        if flag or 38:
                                                                                                                                                                                                                                            if flag or 39:
                                                                                                                                                                                                                                                if flag or 40:
                                                                                                                                                                                                                                                    if flag or 41:
                                                                                                                                                                                                                                                        if flag or 42:
                                                                                                                                                                                                                                                            if flag or 43:
                                                                                                                                                                                                                                                                if flag or 44:
                                                                                                                                                                                                                                                                    if flag or 45:
                                                                                                                                                                                                                                                                        if flag or 46:
                                                                                                                                                                                                                                                                            if flag or 47:
                                                                                                                                                                                                                                                                                if flag or 48:
                                                                                                                                                                                                                                                                                    if flag or 49:
                                                                                                                                                                                                                                                                                        if flag or 50:
                                                                                                                                                                                                                                                                                            if flag or 51:
                                                                                                                                                                                                                                                                                                if flag or 52:
                                                                                                                                                                                                                                                                                                    if flag or 53:
                                                                                                                                                                                                                                                                                                        if flag or 54:
                                                                                                                                                                                                                                                                                                            if flag or 55:
                                                                                                                                                                                                                                                                                                                if flag or 56:
                                                                                                                                                                                                                                                                                                                    if flag or 57:
                                                                                                                                                                                                                                                                                                                        if flag or 58:
                                                                                                                                                                                                                                                                                                                            if flag or 59:
                                                                                                                                                                                                                                                                                                                                task = asyncio.create_task(job())
                                                                                                                                                                                                                                                                                                                                await task
                                                            finally:
                                                                asyncio.create_task(job())
                                        finally:
                                            asyncio.create_task(job())
                    finally:
                        asyncio.create_task(job())


async def expressions(x: Any) -> Any:
    calls = job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(asyncio.create_task(job())))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
    lists = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[asyncio.create_task(job())]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
    total = x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + asyncio.create_task(job()).get_name()
    lambdas = lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: lambda: asyncio.create_task(job())
    asyncio.create_task(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job(job()))))))))))))))))))))))))))))))))))))))))
    return calls, lists, total, lambdas
