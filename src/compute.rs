//! The bounded compute pool: every rules check and search runs here, never on
//! the async runtime's threads.
//!
//! A fixed set of worker threads takes jobs from one queue. Admission is a
//! non-blocking try-acquire on a global budget of running + queued jobs: when
//! it is full, [`ComputePool::run`] fails at once with [`ComputeError::Overloaded`]
//! instead of letting latency grow without bound. Each job gets a [`StopFlag`]
//! that is raised when the caller's future is dropped (the client went away),
//! so a search stops within a few milliseconds and frees its worker.

use crate::game::StopFlag;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use tokio::sync::oneshot;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// Why a job did not produce a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ComputeError {
    /// Every worker is busy and the queue is full; try again after `retry_after_s`.
    #[error("the service is at capacity ({capacity} jobs running or queued); try again shortly")]
    Overloaded {
        /// The admission budget that is full.
        capacity: usize,
        /// A hint for the `Retry-After` header, in seconds.
        retry_after_s: u64,
    },
    /// The job panicked; the worker survived.
    #[error("the computation failed unexpectedly: {0}")]
    Panicked(String),
}

/// Counters shared by the pool handle, its workers and admission permits.
struct Load {
    /// Jobs admitted and not yet finished (queued + running).
    admitted: AtomicUsize,
    /// Jobs a worker is executing.
    running: AtomicUsize,
    /// The gauges they are published to (registered once: looking a metric
    /// up by name on every job was a measurable share of a cheap request).
    queue_gauge: metrics::Gauge,
    running_gauge: metrics::Gauge,
}

impl Load {
    fn new() -> Self {
        Load {
            admitted: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
            queue_gauge: metrics::gauge!("gamebot_compute_queue_depth"),
            running_gauge: metrics::gauge!("gamebot_compute_running"),
        }
    }

    fn publish(&self) {
        let admitted = self.admitted.load(Ordering::Relaxed);
        let running = self.running.load(Ordering::Relaxed);
        self.queue_gauge
            .set(admitted.saturating_sub(running) as f64);
        self.running_gauge.set(running as f64);
    }
}

/// A place in the admission budget, released when the job finishes or is dropped.
struct Permit(Arc<Load>);

impl Drop for Permit {
    fn drop(&mut self) {
        self.0.admitted.fetch_sub(1, Ordering::AcqRel);
        self.0.publish();
    }
}

/// Raises the stop flag when dropped: held by the waiting caller, so that a
/// dropped request future cancels its job.
struct CancelOnDrop(StopFlag);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.raise();
    }
}

/// A fixed pool of compute threads with bounded, non-blocking admission.
pub struct ComputePool {
    sender: Option<crossbeam_channel::Sender<Job>>,
    workers: Vec<JoinHandle<()>>,
    capacity: usize,
    load: Arc<Load>,
}

impl ComputePool {
    /// A pool of `workers` threads (at least 1) admitting at most `queue` jobs beyond them.
    pub fn new(workers: usize, queue: usize) -> Self {
        let workers = workers.max(1);
        let (sender, receiver) = crossbeam_channel::unbounded::<Job>();
        let handles = (0..workers)
            .map(|i| {
                let receiver = receiver.clone();
                std::thread::Builder::new()
                    .name(format!("gamebot-compute-{i}"))
                    .stack_size(16 << 20)
                    .spawn(move || {
                        for job in receiver {
                            job();
                        }
                    })
                    .expect("the OS refused to start a compute thread")
            })
            .collect();
        let load = Arc::new(Load::new());
        load.publish();
        ComputePool {
            sender: Some(sender),
            workers: handles,
            capacity: workers + queue,
            load,
        }
    }

    /// Worker threads.
    pub fn workers(&self) -> usize {
        self.workers.len()
    }

    /// Jobs admitted and not finished (queued + running).
    pub fn admitted(&self) -> usize {
        self.load.admitted.load(Ordering::Relaxed)
    }

    /// Jobs being executed right now.
    pub fn running(&self) -> usize {
        self.load.running.load(Ordering::Relaxed)
    }

    fn try_admit(&self) -> Option<Permit> {
        let admitted = &self.load.admitted;
        let mut current = admitted.load(Ordering::Acquire);
        loop {
            if current >= self.capacity {
                return None;
            }
            match admitted.compare_exchange_weak(
                current,
                current + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => {
                    self.load.publish();
                    return Some(Permit(self.load.clone()));
                }
                Err(actual) => current = actual,
            }
        }
    }

    /// Runs `job` on a worker and waits for its value without blocking the runtime.
    ///
    /// Fails at once with `Overloaded` when the admission budget is full. If the
    /// returned future is dropped before the job ends, the job's stop flag is
    /// raised (and a job that has not started yet is skipped).
    pub async fn run<T, F>(&self, job: F) -> Result<T, ComputeError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> T + Send + 'static,
    {
        self.submit(job)?.await
    }

    /// Admits `job` now (or fails with `Overloaded`) and queues it; the
    /// returned future waits for its value, and dropping it cancels the job
    /// as for [`ComputePool::run`]. For a caller that must know it was
    /// admitted before it answers (a stream's headers).
    pub fn submit<T, F>(&self, job: F) -> Result<Pending<T>, ComputeError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> T + Send + 'static,
    {
        let Some(permit) = self.try_admit() else {
            metrics::counter!("gamebot_compute_rejected_total").increment(1);
            return Err(ComputeError::Overloaded {
                capacity: self.capacity,
                retry_after_s: 1,
            });
        };
        let stop = StopFlag::new();
        let cancel = CancelOnDrop(stop.clone());
        let (reply, answer) = oneshot::channel();
        let load = self.load.clone();
        let task: Job = Box::new(move || {
            if stop.is_raised() {
                return;
            }
            load.running.fetch_add(1, Ordering::AcqRel);
            load.publish();
            let result = catch_unwind(AssertUnwindSafe(|| job(&stop)));
            load.running.fetch_sub(1, Ordering::AcqRel);
            // Free the slot before answering, so the caller's next job is admitted.
            drop(permit);
            let _ = reply.send(result.map_err(panic_message));
        });
        let sender = self.sender.as_ref().expect("the pool is running");
        if sender.send(task).is_err() {
            return Err(ComputeError::Panicked(
                "the compute pool has stopped".into(),
            ));
        }
        Ok(Pending {
            answer,
            _cancel: cancel,
        })
    }
}

/// A job admitted to the pool: resolves to its value; dropped, it cancels the job.
pub struct Pending<T> {
    answer: oneshot::Receiver<Result<T, String>>,
    _cancel: CancelOnDrop,
}

impl<T> std::future::Future for Pending<T> {
    type Output = Result<T, ComputeError>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        std::pin::Pin::new(&mut self.answer)
            .poll(cx)
            .map(|answer| match answer {
                Ok(Ok(value)) => Ok(value),
                Ok(Err(message)) => Err(ComputeError::Panicked(message)),
                Err(_) => Err(ComputeError::Panicked(
                    "the job ended without an answer".into(),
                )),
            })
    }
}

/// The results of [`ComputePool::run_each`], arriving as each finishes, with
/// its index. Dropping it cancels what has not run yet and raises the stop
/// flag of what is running.
pub struct Batch<T> {
    /// `(index, value)` as each job ends; a panicked job's value is its message.
    pub results: tokio::sync::mpsc::UnboundedReceiver<(usize, Result<T, String>)>,
    _cancel: CancelOnDrop,
}

impl ComputePool {
    /// Runs `job` for every index in `0..count`, at most `slots` at a time
    /// (each on a worker of its own), admitted as one job of `slots` places:
    /// all of them or, with [`ComputeError::Overloaded`], none. Each place
    /// takes the next index until none is left or the batch is dropped.
    pub fn run_each<T, F>(
        &self,
        slots: usize,
        count: usize,
        job: F,
    ) -> Result<Batch<T>, ComputeError>
    where
        T: Send + 'static,
        F: Fn(usize, &StopFlag) -> T + Send + Sync + 'static,
    {
        let slots = slots.clamp(1, count.max(1));
        let mut permits = Vec::with_capacity(slots);
        for _ in 0..slots {
            match self.try_admit() {
                Some(permit) => permits.push(permit),
                None => {
                    metrics::counter!("gamebot_compute_rejected_total").increment(1);
                    return Err(ComputeError::Overloaded {
                        capacity: self.capacity,
                        retry_after_s: 1,
                    });
                }
            }
        }
        let stop = StopFlag::new();
        let (sender, results) = tokio::sync::mpsc::unbounded_channel();
        let next = Arc::new(AtomicUsize::new(0));
        let job = Arc::new(job);
        let queue = self.sender.as_ref().expect("the pool is running");
        for permit in permits {
            let (stop, sender, next, job) =
                (stop.clone(), sender.clone(), next.clone(), job.clone());
            let load = self.load.clone();
            let task: Job = Box::new(move || {
                load.running.fetch_add(1, Ordering::AcqRel);
                load.publish();
                while !stop.is_raised() {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count {
                        break;
                    }
                    let result = catch_unwind(AssertUnwindSafe(|| job(index, &stop)));
                    if sender.send((index, result.map_err(panic_message))).is_err() {
                        break;
                    }
                }
                load.running.fetch_sub(1, Ordering::AcqRel);
                drop(permit);
            });
            if queue.send(task).is_err() {
                return Err(ComputeError::Panicked(
                    "the compute pool has stopped".into(),
                ));
            }
        }
        Ok(Batch {
            results,
            _cancel: CancelOnDrop(stop),
        })
    }
}

impl Drop for ComputePool {
    /// Closes the queue and waits for the workers to finish what they hold.
    fn drop(&mut self) {
        self.sender.take();
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with no message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A job that spins until stopped or until `limit` passes; returns whether it was stopped.
    fn spin(stop: &StopFlag, limit: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            if stop.is_raised() {
                return true;
            }
            std::hint::spin_loop();
        }
        false
    }

    #[tokio::test]
    async fn runs_a_job_and_returns_its_value() {
        let pool = ComputePool::new(1, 0);
        assert_eq!(pool.run(|_| 6 * 7).await, Ok(42));
        assert_eq!(pool.admitted(), 0);
    }

    #[tokio::test]
    async fn a_full_pool_refuses_at_once() {
        let pool = Arc::new(ComputePool::new(1, 1));
        let (a, b) = (pool.clone(), pool.clone());
        let first =
            tokio::spawn(async move { a.run(|s| spin(s, Duration::from_millis(300))).await });
        let second =
            tokio::spawn(async move { b.run(|s| spin(s, Duration::from_millis(300))).await });
        while pool.admitted() < 2 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let refused = pool.run(|_| ()).await;
        assert!(matches!(
            refused,
            Err(ComputeError::Overloaded { capacity: 2, .. })
        ));
        assert!(first.await.unwrap().is_ok());
        assert!(second.await.unwrap().is_ok());
        assert_eq!(pool.admitted(), 0);
    }

    #[tokio::test]
    async fn dropping_the_caller_stops_the_job_and_frees_the_worker() {
        let pool = Arc::new(ComputePool::new(1, 0));
        let stopped = Arc::new(std::sync::Mutex::new(None));
        let (runner, flag) = (pool.clone(), stopped.clone());
        let waiting = tokio::spawn(async move {
            runner
                .run(move |s| {
                    let was_stopped = spin(s, Duration::from_secs(30));
                    *flag.lock().unwrap() = Some(was_stopped);
                })
                .await
        });
        while pool.running() == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        waiting.abort();
        let dropped_at = Instant::now();
        while pool.admitted() > 0 {
            assert!(
                dropped_at.elapsed() < Duration::from_secs(5),
                "job never stopped"
            );
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert_eq!(*stopped.lock().unwrap(), Some(true));
        assert_eq!(pool.run(|_| "next").await, Ok("next"));
    }

    #[tokio::test]
    async fn a_panicking_job_is_reported_and_the_worker_survives() {
        let pool = ComputePool::new(1, 0);
        let result: Result<(), _> = pool.run(|_| panic!("boom")).await;
        assert_eq!(result, Err(ComputeError::Panicked("boom".into())));
        assert_eq!(pool.run(|_| 1).await, Ok(1));
    }
}
