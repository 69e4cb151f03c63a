"""`bench/RESULTS.md`: one run's figures, the machine they came from, and the details."""

from __future__ import annotations

import datetime
from typing import Any

from bench.report import Report

HOW_TO_READ = """\
## How to read this

- Every figure is measured in this run, next to its target and the baseline it is compared
  with (also measured in this run, interleaved where timing matters). "ok" is empty for figures
  shown for context only.
- Timings come from a shared 2-core machine: other work runs beside the benchmarks (see the
  load averages above; a load of 2 means both cores busy). Tail latencies (p99, worst cases)
  and wall-clock times rise with that load; CPU time and the token bills do not.
- Token figures are the scripted Messages API's accounting (deterministic counting rule,
  prompt cache with a 4,096-token minimum prefix, as Claude Haiku 4.5), not Anthropic's
  tokenizer: the ratios carry over, the absolute counts do not.
- `bench/README.md` explains each benchmark, and what the figures say about KeSi.
"""


def _pct(values: dict[Any, float], q: int) -> str:
    value = values.get(q, values.get(str(q)))
    return "n/a" if value is None else f"{value:.2f}"


def _streaming(details: dict[str, Any]) -> list[str]:
    out = ["### Streaming (ms, server write -> client receipt)", ""]
    out.append("| path | who | p50 | p90 | p99 | max |")
    out.append("|---|---|---:|---:|---:|---:|")
    paths = (
        ("delta_ms", "text_delta -> the SDK's event / `kesi/stream`"),
        ("end_ms", "message_stop -> final message / `kesi/runFinished`"),
    )
    for key, label in paths:
        for who, name in (("sdk", "raw SDK"), ("kesi", "KeSi")):
            v = details[key][who]
            out.append(
                f"| {label} | {name} | {_pct(v, 50)} | {_pct(v, 90)} | {_pct(v, 99)} "
                f"| {_pct(v, 100)} |"
            )
    plan = details["plan"]
    out += [
        "",
        f"{plan['rounds']} rounds of {plan['deltas']} deltas, one event every "
        f"{plan['event_delay'] * 1000:g} ms.",
        "",
    ]
    return out


def _responsiveness(details: dict[str, Any]) -> list[str]:
    out = ["### Responsiveness (round trip, ms)", ""]
    out.append("| request | phase | p50 | p99 | max |")
    out.append("|---|---|---:|---:|---:|")
    for method in ("codeAction", "kesi.cost"):
        for phase, v in details[method].items():
            out.append(f"| {method} | {phase} | {_pct(v, 50)} | {_pct(v, 99)} | {_pct(v, 100)} |")
    lag = details.get("delta_ms", {})
    out += [
        "",
        f"Streaming lasted {details['stream_seconds']} s at the client "
        f"({details.get('server_stream_seconds')} s at the scripted API), the command "
        f"{details['command_seconds']} s. Text delta latency meanwhile (write -> client): p50 "
        f"{_pct(lag, 50)} ms, p99 {_pct(lag, 99)} ms, max {_pct(lag, 100)} ms. Phases: idle = no"
        " run; streaming = first text delta to toolStart; command = toolStart to toolEnd;"
        " other = the rest of the run (requests, tool set-up).",
        "",
    ]
    return out


def _scale(details: dict[str, Any]) -> list[str]:
    written = details["written"]
    out = [
        "### Tools at scale",
        "",
        f"Generated {written['files']:,} files, {written['bytes'] / 1e9:.2f} GB in "
        f"{details['where']}, in {details['generate_seconds']} s (removed in "
        f"{details.get('remove_seconds', '?')} s). Wall times are from the first round of calls;"
        " the worst probe from the second round, made while code actions kept coming.",
        "",
        "| call | wall s | server CPU s | rg alone s | worst probe ms | result |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for label, c in details["calls"].items():
        base = "" if c["rg_alone_seconds"] is None else f"{c['rg_alone_seconds']:.2f}"
        worst = "" if c["worst_probe_ms"] is None else f"{c['worst_probe_ms']:.0f}"
        r = c["result"]
        result = f"{r['lines']} lines, {r['bytes']:,} bytes" + (" (error)" if r["is_error"] else "")
        out.append(
            f"| {label} | {c['seconds']:.2f} | {c['cpu_seconds']:.2f} | {base} | {worst} "
            f"| {result} |"
        )
    out.append("")
    return out


def _tokens(details: dict[str, Any]) -> list[str]:
    out = ["### Token bills (scripted API accounting)", ""]
    for scenario, configs in details.items():
        if "seed" not in configs:  # the wide search: tokens added to the main conversation
            out += [
                f"**{scenario}**: inline {configs['inline']:,} tokens, through the sub-agent "
                f"{configs['subagent']:,}",
                "",
            ]
            continue
        seed = configs["seed"]["equivalent"]
        out += [
            f"**{scenario}**",
            "",
            "| settings | requests | input | cache write | cache read | output"
            " | billed-input-equivalent | / seed | trims | summaries | largest request |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for name, b in configs.items():
            out.append(
                f"| {name} | {b['requests']} | {b['input']:,} | {b['cache_write']:,} "
                f"| {b['cache_read']:,} | {b['output']:,} | {b['equivalent']:,.0f} "
                f"| {b['equivalent'] / seed:.3f} | {b['trims']} | {b.get('summaries', 0)} "
                f"| {b.get('largest', 0):,} |"
            )
        out.append("")
    return out


def _startup(details: dict[str, Any]) -> list[str]:
    k, m = sorted(details["kesi_ms"]), sorted(details["minimal_ms"])
    return [
        "### Start-up (ms, spawn -> initialize answer)",
        "",
        f"kesi-lsp: {', '.join(f'{x:.0f}' for x in k)}",
        "",
        f"minimal pygls server: {', '.join(f'{x:.0f}' for x in m)}",
        "",
    ]


SECTIONS = {
    "tokens": _tokens,
    "startup": _startup,
    "streaming": _streaming,
    "responsiveness": _responsiveness,
    "scale": _scale,
}


def markdown(report: Report, command: str) -> str:
    m = report.machine
    today = m.get("finished_at") or datetime.datetime.now(datetime.UTC).strftime(
        "%Y-%m-%d %H:%M UTC"
    )
    lines = [
        "# KeSi LSP benchmark results",
        "",
        f"`{command}` ({report.mode} run) on {today}; took {report.seconds.get('total', 0):.0f} s"
        f" ({', '.join(f'{k} {v:.0f} s' for k, v in report.seconds.items() if k != 'total')}).",
        "",
        "## Machine",
        "",
        f"- CPU: {m['cpu']}, {m['cores']} cores ({m['cores_usable']} usable), "
        f"{m['memory_gb']} GB RAM",
        f"- OS: {m['os']}; Python {m['python']}",
        f"- kesi-lsp {m['kesi_lsp']}, pygls {m['pygls']}, anthropic {m['anthropic']}, "
        f"{m['ripgrep']}",
        f"- Load average (1, 5, 15 min) at start {m['load_average_at_start']}, at end "
        f"{m.get('load_average_at_end')}",
        "",
        "## Figures",
        "",
        report.markdown(),
        "",
        "## Details",
        "",
    ]
    for name, section in SECTIONS.items():
        if name in report.details:
            lines += section(report.details[name])
    lines.append(HOW_TO_READ)
    return "\n".join(lines)
