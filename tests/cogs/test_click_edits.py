"""A click on a public prompt is answered by the prompt it changes, edited through the click itself:
Discord does not count an interaction's answer in the channel's 5 edits per 5 s, which a draft's picks
(one edit each) would otherwise fill, holding back the edit that shows the next person their buttons."""

from __future__ import annotations

from bot.client import RaceBot
from bot.discord_io import place as places
from tests.cogs.conftest import World
from tests.cogs.test_hotstreak import open_table


async def test_a_bet_click_edits_its_prompt_through_the_click_not_the_channel(
    world: World, bot: RaceBot
) -> None:
    fake = world.fake
    lobby, table = await open_table(world, "bob")
    await (await fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await fake.wait_for(lambda: any(seat in table.seats for _m, _c, seat in table.bet_buttons()), timeout=10)
    prompt, custom_id, seat = next((m, c, s) for m, c, s in table.bet_buttons() if s in table.seats)
    through_clicks = places.figures["edits_answering"]
    channel_edits = len([r for r in fake.requests if r.method == "PATCH" and str(prompt.id) in r.path])

    click = await fake.click(table.seats[seat], prompt, custom_id)
    await click.wait_response()
    await fake.wait_for(lambda: custom_id not in [c for _m, c, _s in table.bet_buttons()], timeout=5)

    assert click.webhook_edits >= 1  # the prompt moved on through the click's own answer
    # (The bot counts it once Discord's answer is back, which may come after the test saw the change.)
    await fake.wait_for(lambda: places.figures["edits_answering"] > through_clicks, timeout=5)
    edits_since = [
        r
        for r in fake.requests
        if r.method == "PATCH" and f"/channels/{world.channel.id}/messages/{prompt.id}" in r.path
    ]
    # The AI's pick after it may edit in the channel; the click's own change did not.
    assert len(edits_since) - channel_edits <= 1
    assert [m for m in fake.ephemeral_for(table.seats[seat])] == []  # and nothing private besides
