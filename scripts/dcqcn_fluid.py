#!/usr/bin/env python3
"""The DCQCN fluid model (DCQCN paper, SIGCOMM'15, section 5) and its fixed point.

N flows share one bottleneck of capacity C. Each flow has a current rate Rc, a target
rate Rt and alpha; the bottleneck queue q marks packets RED-style with probability p(q).
The feedback reaches the sender tau* later (p' = p(t - tau*), R' = Rc(t - tau*)):

  dq/dt     = sum_i Rc_i - C                                        (q >= 0)
  dalpha/dt = g / tau' * ((1 - (1 - p')^(tau' R')) - alpha)
  dRt/dt    = -(Rt - Rc) / tau * (1 - (1 - p')^(tau R'))
              + R_AI R' (1 - p')^(F B) p' / ((1 - p')^(-B) - 1)
              + R_AI R' (1 - p')^(F T R') p' / ((1 - p')^(-T R') - 1)
  dRc/dt    = -Rc alpha / (2 tau) * (1 - (1 - p')^(tau R'))
              + (Rt - Rc) / 2 * R' p' / ((1 - p')^(-B) - 1)
              + (Rt - Rc) / 2 * R' p' / ((1 - p')^(-T R') - 1)

Rates are in packets/s inside the exponents (a packet is --packet bytes on the wire), B is
the byte counter in packets, T the rate-increase timer, tau the CNP interval, tau' the alpha
timer. The model has no hyper increase (nor does the paper's); rates are capped at C. A
flow starts at line rate with alpha = 1. Integration: explicit Euler, step --dt.

At the fixed point every Rc = C / N; p solves dalpha = dRt = dRc = 0 (bisection) and the
queue is where RED marks with that p.

  dcqcn_fluid.py --starts 0,10ms --duration 60ms --out fluid.csv [--names h1,h2] [--json f.json]

fluid.csv has rates.csv's form (the simulator's report.rate_interval): time_us, one Gb/s
column per flow, queue_bytes. --json writes the fixed point and the queue's percentiles.
"""
import argparse
import json
import math
import os
import sys


def finite(v, text):
    """v if it is a finite number (NaN and infinity are no duration, size or rate)."""
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
    return v


def parse_number(text):
    try:
        return finite(float(text), text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number")


def parse_time(text):
    units = {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    for u in sorted(units, key=len, reverse=True):
        if text.endswith(u):
            try:
                return finite(float(text[: -len(u)]) * units[u], text)
            except ValueError:
                break
    raise argparse.ArgumentTypeError(f"'{text}' is not a duration such as 50us")


def parse_bytes(text):
    units = {"KB": 1e3, "MB": 1e6, "GB": 1e9, "B": 1.0}
    for u in ("KB", "MB", "GB", "B"):
        if text.endswith(u):
            try:
                return finite(float(text[: -len(u)]) * units[u], text)
            except ValueError:
                break
    try:
        return finite(float(text), text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size such as 10MB")


def parse_rate(text):
    units = {"G": 1e9, "M": 1e6, "K": 1e3}
    if text and text[-1] in units:
        try:
            return finite(float(text[:-1]) * units[text[-1]], text)
        except ValueError:
            pass
    raise argparse.ArgumentTypeError(f"'{text}' is not a rate such as 40G")


class Model:
    def __init__(self, a):
        self.a = a
        self.pkt = a.packet
        self.C = a.capacity / (8 * self.pkt)          # packets/s
        self.rai = a.rai / (8 * self.pkt)
        self.B = a.byte_counter / self.pkt            # packets
        self.g = 2.0 ** -a.g_shift

    def mark(self, q_bytes):
        a = self.a
        if q_bytes <= a.kmin:
            return 0.0
        if q_bytes <= a.kmax:
            return (q_bytes - a.kmin) / (a.kmax - a.kmin) * a.pmax
        return 1.0

    @staticmethod
    def events(p, n):
        """p / ((1 - p)^-n - 1): expected events of n unmarked packets per packet; 1/n as p -> 0."""
        if n <= 0:
            return 0.0
        if p <= 0:
            return 1.0 / n
        if p >= 1:
            return 0.0
        x = -n * math.log1p(-p)
        if x > 700:
            return 0.0  # (1 - p)^-n beyond a double: no event gets through
        d = math.expm1(x)
        return p / d if d > 0 else 1.0 / n

    @staticmethod
    def none_in(p, n):
        """(1 - p)^n."""
        if p <= 0:
            return 1.0
        if p >= 1:
            return 0.0
        return math.exp(max(-745.0, n * math.log1p(-p)))

    def derivatives(self, rc, rt, alpha, pd, rd):
        a = self.a
        hit = 1 - self.none_in(pd, a.tau * rd)
        hit_alpha = 1 - self.none_in(pd, a.tau_alpha * rd)
        bt = self.events(pd, self.B)
        tt = self.events(pd, a.timer * rd)
        d_alpha = self.g / a.tau_alpha * (hit_alpha - alpha)
        d_rt = (-(rt - rc) / a.tau * hit + self.rai * rd * self.none_in(pd, a.F * self.B) * bt
                + self.rai * rd * self.none_in(pd, a.F * a.timer * rd) * tt)
        d_rc = -rc * alpha / (2 * a.tau) * hit + (rt - rc) / 2 * rd * bt + (rt - rc) / 2 * rd * tt
        return d_rc, d_rt, d_alpha

    def fixed_point(self, n):
        """Rc = C / n; the marking probability p where dalpha = dRt = dRc = 0, and its queue."""
        a = self.a
        rc = self.C / n

        def f(p):
            alpha = 1 - self.none_in(p, a.tau_alpha * rc)
            hit = 1 - self.none_in(p, a.tau * rc)
            bt, tt = self.events(p, self.B), self.events(p, a.timer * rc)
            if bt + tt <= 0:
                return math.inf, alpha, math.inf  # no increase event gets through: cuts win
            d = rc * alpha * hit / (a.tau * rc * (bt + tt))      # Rt - Rc from dRc = 0
            inc = self.rai * rc * (self.none_in(p, a.F * self.B) * bt + self.none_in(p, a.F * a.timer * rc) * tt)
            return d * hit / a.tau - inc, alpha, d

        lo, hi = 1e-12, 0.999
        if f(lo)[0] * f(hi)[0] > 0:
            return None
        for _ in range(200):
            mid = math.sqrt(lo * hi)
            if f(lo)[0] * f(mid)[0] <= 0:
                hi = mid
            else:
                lo = mid
        p = math.sqrt(lo * hi)
        _, alpha, d = f(p)
        # above Pmax the queue sits beyond Kmax, where RED marks every packet: no fixed queue
        q = a.kmin + p / a.pmax * (a.kmax - a.kmin) if p <= a.pmax else None
        to_gbps = 8 * self.pkt / 1e9
        return {"flows": n, "rc_gbps": rc * to_gbps, "rt_gbps": (rc + d) * to_gbps, "alpha": alpha, "p": p,
                "queue_bytes": q}

    def run(self, starts, duration, dt, every):
        a = self.a
        n = len(starts)
        lag = max(1, int(round(a.feedback / dt)))
        hist_p = [0.0] * lag
        hist_r = [[0.0] * lag for _ in range(n)]
        rc, rt, alpha = [0.0] * n, [0.0] * n, [1.0] * n
        on = [False] * n
        q = 0.0  # packets
        rows, queue = [], []
        acc = [0.0] * n
        steps, per = int(round(duration / dt)), max(1, int(round(every / dt)))
        for k in range(steps):
            t = k * dt
            for i in range(n):
                if not on[i] and t >= starts[i]:
                    on[i], rc[i], rt[i], alpha[i] = True, self.C, self.C, 1.0
            slot = k % lag
            pd = hist_p[slot]            # written lag steps ago
            p_now = self.mark(q * self.pkt)
            new = []
            for i in range(n):
                if not on[i]:
                    new.append((0.0, 0.0, 1.0))
                    continue
                rd = hist_r[i][slot] if hist_r[i][slot] > 0 else rc[i]
                d_rc, d_rt, d_al = self.derivatives(rc[i], rt[i], alpha[i], pd, rd)
                new.append((min(self.C, max(0.0, rc[i] + d_rc * dt)), min(self.C, max(0.0, rt[i] + d_rt * dt)),
                            min(1.0, max(0.0, alpha[i] + d_al * dt))))
            q = max(0.0, q + (sum(rc[i] for i in range(n) if on[i]) - self.C) * dt)
            for i in range(n):
                hist_r[i][slot] = rc[i] if on[i] else 0.0
                acc[i] += rc[i] * dt
                rc[i], rt[i], alpha[i] = new[i]
            hist_p[slot] = p_now
            if (k + 1) % per == 0:
                span = per * dt
                rows.append(((k + 1) * dt, [x * 8 * self.pkt / span / 1e9 for x in acc], q * self.pkt))
                queue.append(q * self.pkt)
                acc = [0.0] * n
        return rows, queue


def pct(v, p):
    v = sorted(v)
    if not v:
        return 0.0
    return v[min(len(v) - 1, max(0, math.ceil(p / 100 * len(v)) - 1))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--starts", help="flow start times, comma separated (default one flow at 0)")
    ap.add_argument("--flows", type=int, help="N flows all starting at 0 (instead of --starts)")
    ap.add_argument("--names", help="column names of the flows, comma separated (default f0, f1, ...)")
    ap.add_argument("--duration", type=parse_time, default=parse_time("60ms"))
    ap.add_argument("--dt", type=parse_time, default=parse_time("1us"), help="Euler step")
    ap.add_argument("--every", type=parse_time, default=parse_time("100us"), help="output interval")
    ap.add_argument("--window-from", type=parse_time, default=0.0, help="queue percentiles from here")
    ap.add_argument("--capacity", type=parse_rate, default=parse_rate("40G"))
    ap.add_argument("--packet", type=parse_bytes, default=1062.0, help="bytes a packet takes on the wire")
    ap.add_argument("--feedback", type=parse_time, default=parse_time("50us"), help="tau*, the feedback delay")
    ap.add_argument("--tau", type=parse_time, default=parse_time("50us"), help="CNP interval")
    ap.add_argument("--tau-alpha", type=parse_time, default=parse_time("55us"), help="alpha timer tau'")
    ap.add_argument("--timer", type=parse_time, default=parse_time("55us"), help="rate-increase timer T")
    ap.add_argument("--byte-counter", type=parse_bytes, default=parse_bytes("10MB"), help="byte counter B")
    ap.add_argument("--F", type=int, default=5, help="fast-recovery steps")
    ap.add_argument("--g-shift", type=int, default=8, help="g = 2^-g_shift")
    ap.add_argument("--rai", type=parse_rate, default=parse_rate("40M"), help="R_AI")
    ap.add_argument("--kmin", type=parse_bytes, default=parse_bytes("5KB"))
    ap.add_argument("--kmax", type=parse_bytes, default=parse_bytes("200KB"))
    ap.add_argument("--pmax", type=parse_number, default=0.01)
    ap.add_argument("--out", help="the CSV (rates.csv's form)")
    ap.add_argument("--json", help="fixed point and queue percentiles")
    a = ap.parse_args()
    problems = []
    if a.flows is not None and a.flows < 1:
        problems.append("--flows must be at least 1")
    for k in ("duration", "dt", "every", "feedback", "tau", "tau_alpha", "timer", "capacity", "packet", "byte_counter"):
        if getattr(a, k) <= 0:
            problems.append(f"--{k.replace('_', '-')} must be > 0")
    if not (0 < a.pmax <= 1):
        problems.append("--pmax must be in (0, 1]")
    if a.kmax <= a.kmin:
        problems.append("--kmax must be above --kmin")
    if a.F < 0 or not (0 <= a.g_shift <= 16):
        problems.append("--F must be >= 0 and --g-shift in 0..16")
    if a.dt > a.every or a.dt > a.feedback:
        problems.append("--dt must not exceed --every or --feedback")
    if a.flows is not None and a.starts is not None:
        problems.append("--flows and --starts exclude each other")
    try:
        starts = [0.0] * a.flows if a.flows else [parse_time(s) for s in (a.starts or "0us").split(",")]
    except argparse.ArgumentTypeError as e:
        problems.append(f"--starts: {e}")
        starts = []
    late = [t for t in starts if not 0 <= t < a.duration]
    if late:
        problems.append(f"--starts: every start must be in [0, --duration) ({len(late)} not)")
    if not 0 <= a.window_from < a.duration:
        problems.append("--window-from must be in [0, --duration)")
    for opt, path in (("--out", a.out), ("--json", a.json)):
        if path and (os.path.isdir(path) or not os.path.isdir(os.path.dirname(os.path.abspath(path)))):
            problems.append(f"{opt} {path}: not a file in an existing directory")
    names = a.names.split(",") if a.names else [f"f{i}" for i in range(len(starts))]
    if starts and len(names) != len(starts):
        problems.append(f"--names gives {len(names)} names for {len(starts)} flows")
    if problems:
        sys.exit("dcqcn_fluid: " + "; ".join(problems))
    m = Model(a)
    rows, _ = m.run(starts, a.duration, a.dt, a.every)
    if a.out:
        with open(a.out, "w") as f:
            f.write("time_us," + ",".join(names) + ",queue_bytes\n")
            for t, rates, q in rows:
                f.write(f"{t * 1e6:.3f}," + ",".join(f"{r:.4f}" for r in rates) + f",{q:.0f}\n")
    inside = [q for t, _, q in rows if t > a.window_from]
    out = {"fixed_point": m.fixed_point(len(starts)),
           "queue_bytes": {"p50": pct(inside, 50), "p95": pct(inside, 95), "p99": pct(inside, 99)},
           "final_rates_gbps": rows[-1][1] if rows else []}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
    fp = out["fixed_point"]
    if fp:
        print(f"fixed point, {fp['flows']} flow(s): Rc {fp['rc_gbps']:.3f} Gb/s, Rt {fp['rt_gbps']:.3f} Gb/s, "
              f"alpha {fp['alpha']:.4f}, p {fp['p']:.3e}, queue "
              + (f"{fp['queue_bytes'] / 1e3:.1f} KB" if fp["queue_bytes"] is not None else "above Kmax (p > Pmax)"))
    print(f"queue from {a.window_from * 1e3:g} ms: p50 {out['queue_bytes']['p50'] / 1e3:.1f} KB, "
          f"p95 {out['queue_bytes']['p95'] / 1e3:.1f} KB; final rates "
          + ", ".join(f"{r:.2f}" for r in out["final_rates_gbps"]) + " Gb/s")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)
