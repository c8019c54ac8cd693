//! An ordered parallel pipeline: `jobs` threads, the calling one among them, each read
//! an item in turn and work on it; the calling thread takes the results in input order.
//!
//! Reading, working and reporting overlap: no step waits for a whole batch, so the
//! serial parts (splitting a file into chunks, writing the report) run beside the work
//! instead of between rounds of it. At most [`in_flight`] items are read and not yet
//! taken, so memory stays flat whatever the input's size.

use std::collections::BTreeMap;
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Condvar, Mutex, TryLockError};
use std::thread;
use std::time::{Duration, Instant};

/// Items read and not yet taken, for `jobs` workers: enough that no worker waits for the
/// reader or for a slow item ahead of it, few enough that memory stays flat.
pub fn in_flight(jobs: usize) -> usize {
    4 * jobs + 4
}

/// Why a pipeline stopped early.
#[derive(Debug)]
pub enum Stopped<E> {
    /// The input or the taker gave this error (an input's error at its place in the
    /// order: everything before it was taken).
    Failed(E),
    /// A worker could not be started.
    Spawn(std::io::Error),
}

/// Runs `work` on each item of `input` on `jobs` threads, the calling thread and `jobs - 1`
/// threads of `stack_bytes` stack each, and hands the results to `take` on the calling
/// thread in input order. Stops at the first error of `input` or of `take`; the threads
/// are joined before it returns.
pub fn run_ordered<W, T, E>(
    jobs: usize,
    stack_bytes: usize,
    input: impl Iterator<Item = Result<W, E>> + Send,
    work: impl Fn(W) -> T + Sync,
    mut take: impl FnMut(T) -> Result<(), E>,
) -> Result<(), Stopped<E>>
where
    W: Send,
    T: Send,
    E: Send,
{
    let limit = in_flight(jobs);
    // Each thread reads its next item itself, in turn: a reading thread of its own cost
    // a hand-over (a thread woken, often another put to sleep) for every item.
    let input = Mutex::new(Numbered {
        items: input,
        next: 0,
        ended: false,
    });
    // A permit per item in flight: a thread takes one before reading an item, the taker
    // gives it back once the item's result is taken.
    let permits = Permits {
        state: Mutex::new(PermitState {
            free: limit,
            waiting: 0,
            closed: false,
        }),
        given_back: Condvar::new(),
    };
    thread::scope(|scope| {
        // Dropped when this closure returns, before the workers are joined: a worker
        // waiting for a permit then stops.
        let _closes = ClosesOnDrop(&permits);
        let (done_tx, done_rx) = sync_channel::<(u64, Result<T, E>)>(limit);
        for _ in 1..jobs {
            let done_tx = done_tx.clone();
            let (input, permits, work) = (&input, &permits, &work);
            thread::Builder::new()
                .stack_size(stack_bytes)
                .spawn_scoped(scope, move || worker(input, permits, work, &done_tx))
                .map_err(Stopped::Spawn)?;
        }
        // The taker's last loop ends when every worker has dropped its sender.
        drop(done_tx);
        let mut taker = Taker {
            next: 0,
            waiting: BTreeMap::new(),
            permits: &permits,
            take: &mut take,
        };
        // The calling thread works too, taking what is ready between its own items: a
        // thread that only took results was a thread more than cores, woken for every
        // item, putting a worker to sleep each time.
        loop {
            while let Ok((number, result)) = done_rx.try_recv() {
                taker.arrived(number, result)?;
            }
            // No permit free means every item in flight is done or in a worker's hands,
            // and only taking results frees one: this thread waits for a result.
            if !permits.try_take() {
                match done_rx.recv() {
                    Ok((number, result)) => {
                        taker.arrived(number, result)?;
                        continue;
                    }
                    // No worker left, and no permit: nothing is in flight.
                    Err(_) => break,
                }
            }
            match read(&input) {
                Some((number, Ok(item))) => taker.arrived(number, Ok(work(item)))?,
                Some((number, Err(e))) => {
                    taker.arrived(number, Err(e))?;
                    break;
                }
                None => break,
            }
        }
        // Ends when every worker has finished.
        for (number, result) in &done_rx {
            taker.arrived(number, result)?;
        }
        Ok(())
    })
}

/// The input, numbering its items as they are read.
struct Numbered<I> {
    items: I,
    next: u64,
    /// The input gave its last item or an error: nothing more is read.
    ended: bool,
}

/// The next item and its number; `None` once the input has ended (or a thread panicked
/// while reading). An error ends the reading.
fn read<W, E>(
    input: &Mutex<Numbered<impl Iterator<Item = Result<W, E>>>>,
) -> Option<(u64, Result<W, E>)> {
    let mut numbered = lock_yielding(input).ok()?;
    if numbered.ended {
        return None;
    }
    let number = numbered.next;
    match numbered.items.next() {
        Some(Ok(item)) => {
            numbered.next += 1;
            Some((number, Ok(item)))
        }
        Some(Err(e)) => {
            numbered.ended = true;
            Some((number, Err(e)))
        }
        None => {
            numbered.ended = true;
            None
        }
    }
}

/// How long a thread that finds the input locked keeps trying before it sleeps: longer
/// than another thread holds it to read a chunk (some tens of microseconds), shorter
/// than work worth a core. A thread put to sleep there was woken 0.1 ms to 1.6 ms later
/// on a two-core VM (`perf trace`), each time another thread read an item while it
/// waited.
const YIELD_BEFORE_SLEEP: Duration = Duration::from_micros(300);

/// `mutex.lock()`, trying again and yielding its core for up to [`YIELD_BEFORE_SLEEP`]
/// while another thread holds it.
fn lock_yielding<T>(mutex: &Mutex<T>) -> std::sync::LockResult<std::sync::MutexGuard<'_, T>> {
    let start = Instant::now();
    loop {
        match mutex.try_lock() {
            Ok(guard) => return Ok(guard),
            Err(TryLockError::Poisoned(poisoned)) => return Err(poisoned),
            // Yielding, not spinning in place: where threads outnumber cores, the one
            // holding the lock may be waiting for this one's core (spinning cost
            // `--jobs 16` on two cores 10% more time).
            Err(TryLockError::WouldBlock) if start.elapsed() < YIELD_BEFORE_SLEEP => {
                thread::yield_now();
            }
            Err(TryLockError::WouldBlock) => return mutex.lock(),
        }
    }
}

/// Reads an item (one per permit) and works on it, until the input ends or the taker
/// stops; an input's error goes straight to the taker at its place, and ends the reading.
fn worker<W, T, E>(
    input: &Mutex<Numbered<impl Iterator<Item = Result<W, E>>>>,
    permits: &Permits,
    work: &impl Fn(W) -> T,
    done: &SyncSender<(u64, Result<T, E>)>,
) {
    // No permit: the taker has stopped.
    while permits.take() {
        let sent = match read(input) {
            Some((number, Ok(item))) => done.send((number, Ok(work(item)))),
            Some((number, Err(e))) => {
                let _ = done.send((number, Err(e)));
                return;
            }
            None => return,
        };
        if sent.is_err() {
            return;
        }
    }
}

/// The items that may still be read while others are in flight, counted. A counter
/// under a lock rather than a channel of tokens: a channel's receiver is one thread's at
/// a time, and the calling thread, finding it held by a worker for an instant, waited
/// for a whole item's result instead of reading one (idle for 0.4 ms at the start of
/// nearly every run, `perf trace` showed).
struct Permits {
    state: Mutex<PermitState>,
    given_back: Condvar,
}

struct PermitState {
    free: usize,
    /// Workers waiting for a permit: only they need waking (a wake is a system call,
    /// made for nobody by a condition variable that is not told).
    waiting: usize,
    /// The taker has stopped: no permit is given any more.
    closed: bool,
}

impl Permits {
    /// A permit if one is free, without waiting.
    fn try_take(&self) -> bool {
        let Ok(mut state) = self.state.lock() else {
            return false;
        };
        let free = state.free > 0 && !state.closed;
        state.free -= usize::from(free);
        free
    }

    /// Waits for a permit; `false` once the taker has stopped (or a thread panicked
    /// holding the lock: the scope re-raises that panic).
    fn take(&self) -> bool {
        let Ok(mut state) = self.state.lock() else {
            return false;
        };
        loop {
            if state.closed {
                return false;
            }
            if state.free > 0 {
                state.free -= 1;
                return true;
            }
            state.waiting += 1;
            state = match self.given_back.wait(state) {
                Ok(state) => state,
                Err(_) => return false,
            };
            state.waiting -= 1;
        }
    }

    fn give_back(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.free += 1;
            if state.waiting > 0 {
                self.given_back.notify_one();
            }
        }
    }

    fn close(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.closed = true;
            self.given_back.notify_all();
        }
    }
}

/// Closes the permits when the taker stops, however it stops.
struct ClosesOnDrop<'a>(&'a Permits);

impl Drop for ClosesOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Takes results in input order, whichever thread made them.
struct Taker<'a, T, E, F> {
    next: u64,
    waiting: BTreeMap<u64, Result<T, E>>,
    permits: &'a Permits,
    take: &'a mut F,
}

impl<T, E, F: FnMut(T) -> Result<(), E>> Taker<'_, T, E, F> {
    /// Item `number`'s result is done: takes it, and those after it that waited for it,
    /// if it is the next.
    fn arrived(&mut self, number: u64, result: Result<T, E>) -> Result<(), Stopped<E>> {
        self.waiting.insert(number, result);
        while let Some(result) = self.waiting.remove(&self.next) {
            self.next += 1;
            (self.take)(result.map_err(Stopped::Failed)?).map_err(Stopped::Failed)?;
            self.permits.give_back();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_whatever_order_they_finish_in() {
        let input = (0..500u64).map(Ok::<_, ()>);
        let mut taken = Vec::new();
        run_ordered(
            4,
            1 << 16,
            input,
            |n| {
                // Early items take longest, so they finish after later ones.
                thread::sleep(std::time::Duration::from_micros((500 - n) % 7 * 50));
                n * 2
            },
            |n| {
                taken.push(n);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(taken, (0..500).map(|n| n * 2).collect::<Vec<_>>());
    }

    #[test]
    fn an_input_error_stops_after_the_items_before_it() {
        let input = (0..100u32).map(|n| if n == 40 { Err(n) } else { Ok(n) });
        let mut taken = Vec::new();
        let stopped = run_ordered(
            3,
            1 << 16,
            input,
            |n| n,
            |n| {
                taken.push(n);
                Ok(())
            },
        );
        assert!(matches!(stopped, Err(Stopped::Failed(40))));
        assert_eq!(taken, (0..40).collect::<Vec<_>>());
    }

    #[test]
    fn a_take_error_stops_the_reader_and_the_workers() {
        let read = std::sync::atomic::AtomicU32::new(0);
        let input = (0..).map(|n| {
            read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok::<u32, &str>(n)
        });
        let stopped = run_ordered(
            2,
            1 << 16,
            input,
            |n| n,
            |n| {
                if n == 10 { Err("full disk") } else { Ok(()) }
            },
        );
        assert!(matches!(stopped, Err(Stopped::Failed("full disk"))));
        // An endless input: the reader stopped within the items that may be in flight.
        let read = read.load(std::sync::atomic::Ordering::Relaxed) as usize;
        assert!(read <= 11 + in_flight(2), "read {read} items");
    }

    #[test]
    fn a_permit_given_back_wakes_a_waiting_worker_and_closing_stops_it() {
        let permits = Permits {
            state: Mutex::new(PermitState {
                free: 1,
                waiting: 0,
                closed: false,
            }),
            given_back: Condvar::new(),
        };
        assert!(permits.try_take());
        assert!(!permits.try_take());
        thread::scope(|scope| {
            let waiter = scope.spawn(|| (permits.take(), permits.take()));
            // Both takes wait: the first for this permit, the second until closing.
            while permits.state.lock().unwrap().waiting == 0 {
                thread::yield_now();
            }
            permits.give_back();
            let second_waits = |state: &PermitState| state.free == 0 && state.waiting == 1;
            while !second_waits(&permits.state.lock().unwrap()) {
                thread::yield_now();
            }
            permits.close();
            assert_eq!(waiter.join().unwrap(), (true, false));
        });
        assert!(!permits.try_take(), "no permit once closed");
    }

    #[test]
    fn items_in_flight_stay_bounded() {
        let in_work = std::sync::atomic::AtomicUsize::new(0);
        let most = std::sync::atomic::AtomicUsize::new(0);
        let input = (0..2000u32).map(|n| {
            let now = in_work.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            most.fetch_max(now, std::sync::atomic::Ordering::SeqCst);
            Ok::<_, ()>(n)
        });
        run_ordered(
            2,
            1 << 16,
            input,
            |n| n,
            |_| {
                in_work.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                Ok(())
            },
        )
        .unwrap();
        assert!(most.into_inner() <= in_flight(2));
    }
}
