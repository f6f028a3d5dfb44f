//! The clocks and the median shared by the native benchmark
//! (`benches/native.rs`) and the side-by-side speed run
//! (`benches/edge_bench.rs`): one definition of "CPU time" and "median",
//! so the two report the same quantity.
//!
//! A module, not a bench target (`autobenches = false` in Cargo.toml):
//! include it with `#[path]`.

/// This thread's CPU time in ms (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`
/// on Linux, declared here to avoid a `libc` dependency), or NaN elsewhere.
/// Less disturbed by other load on the machine than wall time.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
pub fn thread_cpu_ms() -> f64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid pointer to a properly laid out timespec.
    if unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}

/// NaN: no portable per-thread CPU clock without a dependency.
#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
pub fn thread_cpu_ms() -> f64 {
    f64::NAN
}

/// The value at quantile `p` (0..=1) of already sorted, non-empty samples
/// (nearest rank).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    let idx = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[idx]
}

/// Sort `samples` (total order, NaN last) and return their median.
#[allow(dead_code)] // used by benches/edge_bench.rs only
pub fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(|a, b| a.total_cmp(b));
    percentile(&samples, 0.5)
}
