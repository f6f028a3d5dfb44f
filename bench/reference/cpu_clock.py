#!/usr/bin/env python3
"""Run one of the reference bench scripts unchanged, with its clock switched from wall time
(time.perf_counter) to this process's CPU time (time.process_time), so the comparison with the
CPU-time medians of the native and wasm sides is not skewed by other load on the machine.
Usage: cpu_clock.py SCRIPT.py ARGS..."""
import runpy, sys, time
time.perf_counter = time.process_time
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
