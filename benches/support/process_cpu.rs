//! The CPU time of this process, all threads, shared by `benches/lab_windows.rs` and
//! `benches/plugin_despawn.rs`: on a machine shared with other work it is the steadier
//! figure, since waiting for a core does not count in it as it does in wall time.

use std::time::Duration;

/// CPU time of this process so far, all threads (zero if the clock cannot be read).
pub fn process_cpu_time() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec; the clock id is a constant the kernel knows.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
