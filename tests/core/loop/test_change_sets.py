"""Change sets in the agent's loop: what lands is recorded, the model hears what the user did
with it before its next request, a command's deletion can be taken back, and memory is bounded
with a notice (design §2.9). The real loop, tools and SDK against the scripted API."""

from __future__ import annotations

from kesi_lsp.core.changes.actions import Refusal, select
from kesi_lsp.core.changes.run import RunChanges
from kesi_lsp.core.changes.store import ChangeSets
from kesi_lsp.core.changes.undo import plan_undo, undone
from kesi_lsp.core.events import Notice
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import Agent, MakeAgent

CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n"


def edit(old: str, new: str) -> dict[str, object]:
    return tool_use("edit_file", {"file_path": "calc.py", "old_string": old, "new_string": new})


def two_edits() -> list[object]:
    return [
        reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
        reply("First.", edit("return a - b", "return a + b")),
        reply("Second.", edit("sub(a, b):\n    return a + b", "sub(a, b):\n    return a - b")),
        reply("Both fixed."),
    ]


def wire(agent: Agent, run_id: str, task: str = "fix the signs") -> ChangeSets:
    """The run's change set, as `drive` wires it."""
    session = agent.ctx.session
    agent.ctx.changes = RunChanges(session.changes, session.root, run_id, task)
    return session.changes


def undo_on_disk(changes: ChangeSets, **named: str) -> None:
    """What a front end does for `kesi.undo`: plan against the disk, write, record."""
    target = select(changes, **named)  # type: ignore[arg-type]
    assert not isinstance(target, Refusal)
    disk = {p: (p.read_text() if p.exists() else None) for p in changes.paths()}
    plan = plan_undo(changes, target, disk)
    for item in plan.files:
        if item.after is None:
            item.path.unlink()
        else:
            item.path.write_text(item.after)
    undone(changes, plan, [item.path for item in plan.files])


async def test_accept_edits_lands_pending_and_the_next_run_hears_the_undo(
    make_agent: MakeAgent,
) -> None:
    agent = make_agent(
        script(
            *two_edits(),
            reply(
                "Understood, I will not redo it.",
                expect={
                    "last_user_text_contains": "Undone by the user: calc.py line 2 (your change "
                    "was taken back):\n    -    return a + b\n    +    return a - b",
                },
            ),
        ),
        locale="en",
        approvals="acceptEdits",
    )
    calc = agent.ctx.session.root / "calc.py"
    calc.write_text(CALC)
    changes = wire(agent, "run-1")
    assert (await agent.ask("fix the signs")).status == "done"
    first, second = changes.hunks_at(calc.resolve())
    assert (first.state, second.state) == ("pending", "pending")
    assert (first.start, second.start) == (1, 5)
    undo_on_disk(changes, hunk_id=first.id)
    assert calc.read_text() == CALC.replace("return a + b", "return a - b")
    wire(agent, "run-2", "anything else?")
    assert (await agent.ask("anything else?")).status == "done"
    agent.assert_history_sound()
    assert not changes.transitions  # told once


async def test_the_same_run_hears_it_before_its_next_request(make_agent: MakeAgent) -> None:
    """The user undoes a hunk while the agent is still working (here: while it asks to run a
    command): the very next request carries the note."""
    agent = make_agent(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
            reply("Fixing.", edit("return a - b", "return a + b")),
            reply("Testing.", tool_use("run_command", {"command": "touch ran.txt"})),
            reply(
                "The user took it back; I stop here.",
                expect={"last_user_text_contains": "Undone by the user: calc.py line 2"},
            ),
        ),
        locale="en",
        approvals="acceptEdits",
    )
    calc = agent.ctx.session.root / "calc.py"
    calc.write_text(CALC)
    changes = wire(agent, "run-1")
    approve = agent.approver.approve_command

    async def undo_then_allow(request):  # type: ignore[no-untyped-def]
        undo_on_disk(changes)
        return await approve(request)

    agent.approver.approve_command = undo_then_allow  # type: ignore[method-assign]
    assert (await agent.ask("fix add")).status == "done"
    assert calc.read_text() == CALC
    agent.assert_history_sound()


async def test_reviewed_edits_are_recorded_as_kept_and_not_noted(make_agent: MakeAgent) -> None:
    agent = make_agent(
        script(
            *two_edits(),
            reply("ok", expect={"last_user_text_contains": "more"}),
        ),
        locale="en",
    )
    calc = agent.ctx.session.root / "calc.py"
    calc.write_text(CALC)
    changes = wire(agent, "run-1")
    await agent.ask("fix the signs")
    assert [h.state for h in changes.hunks_at(calc.resolve())] == ["kept", "kept"]
    await agent.ask("more")
    history_text = str(agent.history)
    assert "Note from KeSi" not in history_text


async def test_a_file_a_command_deleted_is_restored_by_undoing_the_run(
    make_agent: MakeAgent,
) -> None:
    agent = make_agent(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "old.py"})),
            reply("Removing.", tool_use("run_command", {"command": "rm old.py"})),
            reply("Gone."),
        ),
        locale="en",
        approvals="acceptEdits",
    )
    old = agent.ctx.session.root / "old.py"
    old.write_text("legacy = True\n")
    changes = wire(agent, "run-1")
    await agent.ask("remove old.py")
    assert not old.exists()
    [change_set] = changes.sets
    [file] = change_set.files.values()
    assert file.deleted and file.base == "legacy = True\n"
    undo_on_disk(changes, run_id="run-1")
    assert old.read_text() == "legacy = True\n"
    assert file.taken_back


async def test_old_change_sets_are_dropped_with_a_notice(make_agent: MakeAgent) -> None:
    agent = make_agent(
        script(
            reply("a", edit("return a - b", "return a + b")),
            reply("done"),
            reply("b", edit("return a + b\n\n", "return a * b\n\n")),
            reply("done"),
        ),
        locale="en",
        approvals="acceptEdits",
    )
    calc = agent.ctx.session.root / "calc.py"
    calc.write_text(CALC)
    changes = wire(agent, "run-1")
    changes.max_runs = 1
    await agent.ask("one")
    wire(agent, "run-2")
    await agent.ask("two")
    [notice] = [e for e in agent.of(Notice) if e.kind == "info"]
    assert notice.text.startswith("KeSi forgot the changes of 1 older run(s) in this folder")
    assert [s.run_id for s in changes.sets] == ["run-2"]
    refused = select(changes, run_id="run-1")
    assert isinstance(refused, Refusal) and refused.reason == "droppedRun"
    assert "dropped to stay within the memory limit" in refused.message("en")
    assert calc.read_text() == CALC.replace("return a - b", "return a * b", 1)
