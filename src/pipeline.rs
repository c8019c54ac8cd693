//! An ordered parallel pipeline: one thread reads, `jobs` threads work, the calling
//! thread takes the results in input order.
//!
//! Reading, working and reporting overlap: no step waits for a whole batch, so the
//! serial parts (splitting a file into chunks, writing the report) run beside the work
//! instead of between rounds of it. At most [`in_flight`] items are read and not yet
//! taken, so memory stays flat whatever the input's size.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;

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

/// Runs `work` on each item of `input` on `jobs` threads of `stack_bytes` stack each, and
/// hands the results to `take` on the calling thread in input order. Stops at the first
/// error of `input` or of `take`; the threads are joined before it returns.
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
    // Outside the scope, so that the workers may borrow it; they stop when the reader
    // drops the sending end.
    let (work_tx, work_rx) = sync_channel::<(u64, W)>(limit);
    let work_rx = Mutex::new(work_rx);
    thread::scope(|scope| {
        let (done_tx, done_rx) = sync_channel::<(u64, Result<T, E>)>(limit);
        // A permit per item in flight: the reader takes one before reading an item, the
        // taker gives it back once the item's result is taken.
        let (permit_tx, permit_rx) = sync_channel::<()>(limit);
        for _ in 0..limit {
            permit_tx.send(()).expect("the receiver is held here");
        }
        for _ in 0..jobs {
            let done_tx = done_tx.clone();
            let (work_rx, work) = (&work_rx, &work);
            thread::Builder::new()
                .stack_size(stack_bytes)
                .spawn_scoped(scope, move || worker(work_rx, work, &done_tx))
                .map_err(Stopped::Spawn)?;
        }
        let reader_done = done_tx;
        thread::Builder::new()
            .spawn_scoped(scope, move || {
                read(input, &permit_rx, &work_tx, &reader_done)
            })
            .map_err(Stopped::Spawn)?;
        take_in_order(&done_rx, &permit_tx, &mut take)
    })
}

/// Numbers the items of `input` and passes them on, one per permit; an error goes
/// straight to the taker at its place, and ends the reading.
fn read<W, T, E>(
    mut input: impl Iterator<Item = Result<W, E>>,
    permits: &Receiver<()>,
    work: &SyncSender<(u64, W)>,
    done: &SyncSender<(u64, Result<T, E>)>,
) {
    let mut next = 0;
    // No permit: the taker has stopped.
    while permits.recv().is_ok() {
        let Some(item) = input.next() else {
            return;
        };
        let sent = match item {
            Ok(item) => work.send((next, item)).is_ok(),
            Err(e) => {
                let _ = done.send((next, Err(e)));
                false
            }
        };
        if !sent {
            return;
        }
        next += 1;
    }
}

fn worker<W, T, E>(
    items: &Mutex<Receiver<(u64, W)>>,
    work: &impl Fn(W) -> T,
    done: &SyncSender<(u64, Result<T, E>)>,
) {
    loop {
        // A poisoned lock means another worker panicked: the scope re-raises that panic.
        let Ok(received) = items.lock().map(|items| items.recv()) else {
            return;
        };
        let Ok((number, item)) = received else {
            return;
        };
        if done.send((number, Ok(work(item)))).is_err() {
            return;
        }
    }
}

fn take_in_order<T, E>(
    done: &Receiver<(u64, Result<T, E>)>,
    permits: &SyncSender<()>,
    take: &mut impl FnMut(T) -> Result<(), E>,
) -> Result<(), Stopped<E>> {
    let mut next = 0;
    let mut waiting = BTreeMap::new();
    // Ends when the reader and every worker have finished.
    for (number, result) in done {
        waiting.insert(number, result);
        while let Some(result) = waiting.remove(&next) {
            next += 1;
            take(result.map_err(Stopped::Failed)?).map_err(Stopped::Failed)?;
            // The reader may have finished: a permit nobody takes is no error.
            let _ = permits.send(());
        }
    }
    Ok(())
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
