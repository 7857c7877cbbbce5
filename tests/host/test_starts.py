"""Logins take turns to start their apps, fairly by address (doors/starts.py)."""

from __future__ import annotations

import asyncio

from paris_tui.doors.starts import StartSlots


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_burst_from_one_address_does_not_push_another_back() -> None:
    slots = StartSlots(2, hold=30)
    first = [await slots.acquire("10.0.0.1") for _ in range(2)]  # both slots taken
    order: list[str] = []

    async def login(who: str, address: str) -> None:
        slot = await slots.acquire(address)
        order.append(who)
        slot.release()

    tasks = [asyncio.create_task(login(f"a{i}", "10.0.0.1")) for i in range(3, 6)]
    await _settle()
    tasks.append(asyncio.create_task(login("b1", "10.0.0.2")))
    await _settle()
    assert slots.waiting == 4 and order == []
    first[0].release()
    async with asyncio.timeout(5):
        await asyncio.gather(*tasks)
    # The other address had its turn second, not after the whole burst.
    assert order == ["a3", "b1", "a4", "a5"]
    first[1].release()
    assert slots.waiting == 0


async def test_a_slot_is_free_again_after_the_first_frame_or_the_hold() -> None:
    slots = StartSlots(1, hold=0.05, frame_bytes=100)
    slot = await slots.acquire("a")
    slot.output(60)
    waiting = asyncio.create_task(slots.acquire("b"))
    await _settle()
    assert not waiting.done()
    slot.output(60)  # past the first frame
    async with asyncio.timeout(5):
        second = await waiting
    third = asyncio.create_task(slots.acquire("c"))
    async with asyncio.timeout(5):  # nothing drawn: the hold ends the turn
        (await third).release()
    second.release()  # released twice (the hold did it first): counted once
    fourth = await slots.acquire("d")
    fifth = asyncio.create_task(slots.acquire("e"))
    await _settle()
    assert not fifth.done()
    fourth.release()
    async with asyncio.timeout(5):
        (await fifth).release()


async def test_a_login_that_leaves_the_queue_gives_up_its_place() -> None:
    slots = StartSlots(1, hold=30)
    slot = await slots.acquire("a")
    gone = asyncio.create_task(slots.acquire("b"))
    stays = asyncio.create_task(slots.acquire("c"))
    await _settle()
    gone.cancel()
    await _settle()
    assert slots.waiting == 1
    slot.release()
    async with asyncio.timeout(5):
        (await stays).release()
    assert slots.waiting == 0
