"""``tablelog verify``: is the record the one that was written?  Each game's chain, its
projections against a fresh fold, and the file's integrity; or a shared file against the
stored game (see ``docs/integrity.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .options import EXIT_ILLEGAL, Unreadable, db_option, echo_json, json_option, opened


@click.command("verify")
@click.argument("games", nargs=-1)
@click.option(
    "--file",
    "file_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A notation or JSON file of GAME: does it hold the stored game (its head)?",
)
@click.option(
    "--key",
    envvar="TABLELOG_CHAIN_KEY",
    default=None,
    help="A secret: also print each head keyed with it (HMAC) [env TABLELOG_CHAIN_KEY].",
)
@click.option(
    "--heads",
    "heads_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A list of heads kept elsewhere (as `tablelog heads` prints them): each game's "
    "kept head must be one of its stored steps (a cut record is found).",
)
@click.option(
    "--head",
    "kept",
    nargs=2,
    multiple=True,
    metavar="GAME HASH",
    help="A game's head as someone kept it (plain, or keyed with --key); repeatable.",
)
@json_option
@db_option
def verify_cmd(
    games: tuple[str, ...],
    file_path: Path | None,
    key: str | None,
    heads_path: Path | None,
    kept: tuple[tuple[str, str], ...],
    as_json: bool,
    db_path: str | None,
) -> None:
    """Check that the record was not changed: each game's chain of hashes (recomputed
    from its events, naming the first step that differs), its summary and players
    against a fresh fold of its events, and SQLite's integrity check.  Every game when
    none is named.  Exit 1 on any finding, each naming its game and step.

    With --file, compute the head of a shared notation or JSON file and compare it with
    the stored game's: a file exported earlier matches up to its last step.

    A record cut short with its stored head made to match verifies on its own: keep the
    heads elsewhere (`tablelog heads > heads.txt`, published or mailed) and check them
    with --heads FILE or --head GAME HASH; a kept head must be one of the game's steps.

    \b
    Examples:
      tablelog verify
      tablelog verify 6138631be858 --json
      tablelog verify --file fixtures/games/dispute.tl 6138631be858
      tablelog verify --heads heads.txt
    """
    if file_path is not None:
        if len(games) != 1:
            raise Unreadable("--file compares a file with one stored game: name one GAME")
        _verify_file(file_path, games[0], as_json, db_path)
        return
    from recorder import GameNotFound, chain
    from recorder.verify import kept_head_findings

    given = list(kept) + (_read_heads(heads_path) if heads_path is not None else [])
    with opened(db_path, must_exist=True, error=Unreadable) as store:
        try:
            heads = store.verification.heads(games or None)
            findings = store.verification.verify(games or None)
        except GameNotFound as err:
            raise Unreadable(str(err)) from None
        findings += kept_head_findings(store, given, key)
    bad = {f.game for f in findings}
    summaries = []
    for game_id, steps, head in heads:
        entry: dict[str, Any] = {
            "game": game_id,
            "ok": game_id not in bad,
            "steps": steps,
            "head": head,
        }
        if key:
            entry["keyed_head"] = chain.keyed(head, key)
        summaries.append(entry)
    if as_json:
        echo_json(
            {"ok": not findings, "games": summaries, "findings": [f.to_dict() for f in findings]}
        )
    else:
        for finding in findings:
            click.echo(str(finding))
        for entry in summaries:
            if entry["ok"]:
                keyed = f", keyed head {chain.short(entry['keyed_head'])}" if key else ""
                click.echo(
                    f"game {entry['game']}: ok, {entry['steps']} steps, "
                    f"head {chain.short(entry['head'])}{keyed}"
                )
        n = len(findings)
        click.echo(
            f"verified {len(heads)} game{'s' * (len(heads) != 1)}: "
            + ("ok" if not n else f"{n} finding{'s' * (n != 1)}")
        )
    if findings:
        raise SystemExit(EXIT_ILLEGAL)


def _verify_file(path: Path, game_id: str, as_json: bool, db_path: str | None) -> None:
    """``verify --file``: the file's chain against the stored game's."""
    from recorder import ImportRejected, chain
    from recorder.io import load_file
    from recorder.prepare import prepare_game

    try:
        records = load_file(path)
        if len(records) != 1:
            raise Unreadable(f"{path}: holds {len(records)} games; give a file of one game")
        prepared = prepare_game(records[0])
    except ImportRejected as err:
        raise Unreadable(str(err) if err.source else f"{path}: {err}") from None
    file_hashes = [
        chain.origin(prepared.kind, records[0].headers).hex(),
        *(row[3].hex() for row in prepared.event_rows()),
    ]
    with opened(db_path, must_exist=True, error=Unreadable) as store:
        stored = store.verification.step_hashes(game_id)
        findings = store.verification.verify([game_id])
    steps = len(file_hashes) - 1
    differs = next(
        (i for i, (a, b) in enumerate(zip(file_hashes, stored, strict=False)) if a != b), None
    )
    if differs is None and steps > len(stored) - 1:
        differs = len(stored)
    if differs is None:
        ok = True
        if steps == len(stored) - 1:
            verdict = f"matches game {game_id}: head {chain.short(prepared.head)}"
        else:
            verdict = (
                f"matches game {game_id} up to step {steps} of {len(stored) - 1}: "
                f"head {chain.short(prepared.head)} at step {steps}"
            )
    else:
        ok = False
        where = (
            "the game's kind or headers differ"
            if differs == 0
            else f"step {differs} differs"
            if differs < len(stored)
            else f"step {differs} is not in the stored game"
        )
        verdict = (
            f"does not match game {game_id}: {where} (file head {chain.short(prepared.head)}, "
            f"stored head {chain.short(stored[-1])})"
        )
    if as_json:
        echo_json(
            {
                "ok": ok and not findings,
                "file": str(path),
                "game": game_id,
                "file_head": prepared.head,
                "file_steps": steps,
                "stored_head": stored[-1],
                "stored_steps": len(stored) - 1,
                "first_difference": differs,
                "findings": [f.to_dict() for f in findings],
            }
        )
    else:
        for finding in findings:
            click.echo(str(finding))
        click.echo(f"{path}: {verdict}")
    if not ok or findings:
        raise SystemExit(EXIT_ILLEGAL)


def _read_heads(path: Path) -> list[tuple[str, str]]:
    """(game, head) of each line of a list of heads (``GAME STEPS HEAD`` as `tablelog
    heads` prints it, or ``GAME HEAD``); blank lines and ``#`` comments are skipped."""
    from recorder import ImportRejected
    from recorder.io import decode, file_bytes

    try:
        text = decode(file_bytes(path), str(path))
    except ImportRejected as err:
        raise Unreadable(str(err)) from None
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) not in (2, 3) or not all(c in "0123456789abcdef" for c in fields[-1]):
            raise Unreadable(
                f"{path}:{number}:1: expected GAME STEPS HEAD (as tablelog heads prints them)"
            )
        out.append((fields[0], fields[-1]))
    return out


@click.command("heads")
@click.argument("games", nargs=-1)
@click.option(
    "--key",
    envvar="TABLELOG_CHAIN_KEY",
    default=None,
    help="A secret: print each head keyed with it (HMAC), which only its holder can make "
    "for a changed record [env TABLELOG_CHAIN_KEY].",
)
@json_option
@db_option
def heads_cmd(games: tuple[str, ...], key: str | None, as_json: bool, db_path: str | None) -> None:
    """Print each game's head, one line a game (GAME STEPS HEAD): keep the list outside
    the store (publish it, mail it) and `tablelog verify --heads FILE` later finds a
    record that was cut short or changed since, even with its stored head made to match.
    Every game when none is named.

    \b
    Examples:
      tablelog heads > heads.txt
      tablelog verify --heads heads.txt
    """
    from recorder import GameNotFound, chain

    with opened(db_path, must_exist=True, error=Unreadable) as store:
        try:
            heads = store.verification.heads(games or None)
        except GameNotFound as err:
            raise Unreadable(str(err)) from None
    rows = [(g, n, chain.keyed(h, key) if key else h) for g, n, h in heads]
    if as_json:
        echo_json([{"game": g, "steps": n, "head": h, "keyed": bool(key)} for g, n, h in rows])
        return
    for game, steps, head in rows:
        click.echo(f"{game} {steps} {head}")


COMMANDS: list[click.Command] = [verify_cmd, heads_cmd]
