import pickle, time
from tests.cogs.conftest import World  # noqa
from tests.cogs.hotstreak_player import HotStreakTable


def dumpall(world, name):
    fake, users = world.fake, world.users
    out = []
    def dump(m, where):
        for v in list(m.edits) + [m.snapshot()]:
            out.append((where, m.id, v))
    for m in fake.channel_messages(world.channel): dump(m, "chan")
    for u in ("alice", "bob"):
        for m in fake.dm_messages(users[u]): dump(m, "dm:" + u)
        for m in fake.ephemeral_for(users[u]): dump(m, "eph:" + u)
    with open(f"/tmp/scr/{name}.pkl", "wb") as f:
        pickle.dump(({u.id: u.name for u in users.values()}, out), f)


async def test_dump(world, bot):
    t = time.time()
    fake, users = world.fake, world.users
    ix = await fake.slash(users["alice"], world.channel, "hotstreak start", pace=0.0)
    lobby = await ix.reply()
    await (await fake.click_button(users["bob"], lobby, "Join")).wait_response()
    await (await fake.click_button(users["alice"], lobby, "Add AI")).wait_response()
    table = HotStreakTable(world, {0: users["alice"], 1: users["bob"]})
    await (await fake.click_button(users["alice"], lobby, "Start")).wait_response()
    await table.play_to_the_end(dm_less={"bob"})
    print("time", time.time() - t)
    dumpall(world, "hs")


async def test_dump_hr(world, bot):
    t = time.time()
    fake, users = world.fake, world.users
    ix = await fake.slash(users["alice"], world.channel, "horserace start", races=1, rolls="auto", pace=0.0)
    lobby = await ix.reply()
    await (await fake.click_button(users["bob"], lobby, "Join")).wait_response()
    await (await fake.click_button(users["alice"], lobby, "Start")).wait_response()
    await fake.wait_for(lambda: any("Final standings" in m.text for m in fake.channel_messages(world.channel)), timeout=60)
    print("time", time.time() - t)
    dumpall(world, "hr")
