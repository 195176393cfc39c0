//! The rayon pool split searches run on, started when a search first needs it: a search that
//! ends in its serial try (most puzzles, in microseconds) never starts a thread.

use std::sync::Once;

/// Start the global rayon pool with `workers` threads that have the stack a search needs
/// ([`SEARCH_STACK`](super::SEARCH_STACK)), unless this thread already runs in a pool (a
/// caller's `pool.install`) or the global pool was started before: by the caller, or by an
/// earlier call (whose worker count holds). Searches call it before they split; a program
/// calls it before its own parallel work on searches.
pub fn start_global_pool(workers: usize) {
    if rayon::current_thread_index().is_some() {
        return;
    }
    static START: Once = Once::new();
    START.call_once(|| {
        // An error means a global pool exists already (or threads cannot be made at all,
        // where rayon's own first use will say so).
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(workers.max(1))
            .stack_size(super::SEARCH_STACK)
            .build_global();
    });
}
