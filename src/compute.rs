//! The bounded compute pools: every rules check and search runs on one,
//! never on the async runtime's threads.
//!
//! A pool is a fixed set of worker threads and a fair queue. Admission is a
//! non-blocking check of a budget of running + queued jobs (and of the
//! client's own limit, when it has one): when it is full,
//! [`ComputePool::submit`] fails at once instead of letting latency grow
//! without bound. Queued jobs wait in one queue per client, and the workers
//! serve the clients in turn, one job each (round robin), so a client with a
//! hundred queued jobs delays another client's one job by about one job.
//! Each job gets a [`StopFlag`] that is raised when the caller's future is
//! dropped (the client went away): a queued job leaves the queue at once and
//! gives its place back; a running one stops within a few milliseconds and
//! frees its worker.
//!
//! The server runs two pools, each its own lane: searches on one, the
//! cheap rules calls on another, so a rules call never waits behind a search.

use crate::game::StopFlag;
use std::collections::{HashMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, Notify};

/// A queued job: it computes (or, told it waited past its latest start,
/// gives that as its answer), and gives back how to deliver its value,
/// which the worker calls after it has given the job's place back (so the
/// caller's next job is admitted as soon as it has this one's answer).
type Job = Box<dyn FnOnce(&StopFlag, Option<ComputeError>) -> Deliver + Send + 'static>;

/// Hands a job's value to its caller.
type Deliver = Box<dyn FnOnce() + Send + 'static>;

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
    /// The client already has as many jobs running or queued as its key allows.
    #[error("the API key '{name}' already has {limit} searches running or queued, its limit; wait for one to end")]
    ClientLimit {
        /// The key's name.
        name: String,
        /// Its limit of searches running or queued at once.
        limit: usize,
    },
    /// The pool is shutting down and takes no more work.
    #[error("the service is shutting down")]
    ShuttingDown,
    /// The job waited in the queue longer than its request allowed
    /// (`max_queue_ms`), so it was not run.
    #[error("the request waited {waited_ms} ms for a worker, more than the {allowed_ms} ms its max_queue_ms allows; it was not searched (retry, or ask another replica)")]
    QueuedTooLong {
        /// How long it waited.
        waited_ms: u64,
        /// How long it allowed.
        allowed_ms: u64,
    },
    /// The job panicked; the worker survived.
    #[error("the computation failed unexpectedly: {0}")]
    Panicked(String),
}

/// Who a job is for: the queue it waits in, the class its metrics count it
/// under, and the client's own limit on jobs at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Client {
    /// The identity the fair queue serves in turn (an API key's name, a
    /// peer address, or the value of a trusted proxy's header).
    id: Arc<str>,
    /// The metric label: a key's name, or `anonymous` (a closed set).
    class: Arc<str>,
    /// The most jobs this client may have running or queued at once.
    limit: Option<usize>,
}

/// The class of clients without an API key.
pub const ANONYMOUS: &str = "anonymous";

impl Client {
    /// A client known by its API key's name, with the key's limit on
    /// searches at once, if it has one.
    pub fn keyed(name: &str, limit: Option<usize>) -> Client {
        Client {
            id: format!("key:{name}").into(),
            class: name.into(),
            limit,
        }
    }

    /// A client without a key, known by `identity` (a peer address or a
    /// proxy's header value).
    pub fn anonymous(identity: &str) -> Client {
        Client {
            id: format!("anon:{identity}").into(),
            class: ANONYMOUS.into(),
            limit: None,
        }
    }

    /// The server itself (tests, and work nobody asked for over HTTP).
    pub fn local() -> Client {
        Client::anonymous("local")
    }

    /// The fair queue's identity of this client.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The metrics' class of this client.
    pub fn class(&self) -> &str {
        &self.class
    }

    /// The client's own limit on jobs at once.
    pub fn limit(&self) -> Option<usize> {
        self.limit
    }

    /// The same client with its own limit on jobs at once set to `limit`.
    pub fn with_limit(mut self, limit: Option<usize>) -> Client {
        self.limit = limit;
        self
    }
}

/// A queued job and how to find it again.
struct Queued {
    id: u64,
    job: Job,
    stop: StopFlag,
    queued_at: Instant,
    /// How long it may wait for a worker, if its request said (`max_queue_ms`).
    max_wait: Option<Duration>,
}

/// What the pool's lock guards.
#[derive(Default)]
struct State {
    /// Clients with queued jobs, in the order they are served.
    turns: VecDeque<Arc<str>>,
    /// Each client's queued jobs, oldest first.
    queued: HashMap<Arc<str>, VecDeque<Queued>>,
    /// Jobs admitted and not finished (queued + running), in all and per client.
    admitted: usize,
    admitted_by: HashMap<Arc<str>, usize>,
    /// The stop flags of the jobs running now, by job id.
    running: HashMap<u64, StopFlag>,
    next_id: u64,
    closed: bool,
}

impl State {
    fn queued_len(&self) -> usize {
        self.admitted - self.running.len()
    }

    /// Gives back the places of a finished or withdrawn job of `client`.
    fn release(&mut self, client: &Arc<str>) {
        self.admitted -= 1;
        if let Some(count) = self.admitted_by.get_mut(client) {
            *count -= 1;
            if *count == 0 {
                self.admitted_by.remove(client);
            }
        }
    }

    /// The next job in turn: the first queued job of the client whose turn
    /// it is, who then goes to the back of the line if it has more.
    fn next_job(&mut self) -> Option<(Arc<str>, Queued)> {
        let client = self.turns.pop_front()?;
        let jobs = self.queued.get_mut(&client)?;
        let job = jobs.pop_front()?;
        if jobs.is_empty() {
            self.queued.remove(&client);
        } else {
            self.turns.push_back(client.clone());
        }
        Some((client, job))
    }

    /// Takes a queued job out of the line, if it is still there.
    fn withdraw(&mut self, client: &Arc<str>, id: u64) -> Option<Queued> {
        let jobs = self.queued.get_mut(client)?;
        let at = jobs.iter().position(|job| job.id == id)?;
        let job = jobs.remove(at);
        if jobs.is_empty() {
            self.queued.remove(client);
            self.turns.retain(|c| c != client);
        }
        job
    }
}

/// What the pool handle, its workers and the callers' guards share.
struct Shared {
    lane: &'static str,
    capacity: usize,
    state: Mutex<State>,
    /// Wakes a worker when a job is queued or the pool closes.
    work: Condvar,
    /// Wakes callers waiting for a place when one is given back.
    freed: Notify,
    queue_gauge: metrics::Gauge,
    running_gauge: metrics::Gauge,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A job runs outside the lock, so a poisoned lock means a bug in
        // this module; its data is still consistent enough to go on.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn publish(&self, state: &State) {
        self.queue_gauge.set(state.queued_len() as f64);
        self.running_gauge.set(state.running.len() as f64);
    }

    /// Gives back a job's places and wakes anyone waiting for one.
    fn finish(&self, client: &Arc<str>, id: Option<u64>) {
        let mut state = self.lock();
        if let Some(id) = id {
            state.running.remove(&id);
        }
        state.release(client);
        self.publish(&state);
        drop(state);
        self.freed.notify_waiters();
    }
}

/// A fixed pool of compute threads with bounded, non-blocking, fair admission.
pub struct ComputePool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl ComputePool {
    /// A search pool of `workers` threads (at least 1) admitting at most
    /// `queue` jobs beyond them.
    pub fn new(workers: usize, queue: usize) -> Self {
        ComputePool::lane("search", workers, queue)
    }

    /// A pool for the lane named `lane` (its metrics' label) of `workers`
    /// threads (at least 1) admitting at most `queue` jobs beyond them.
    pub fn lane(lane: &'static str, workers: usize, queue: usize) -> Self {
        let workers = workers.max(1);
        let shared = Arc::new(Shared {
            lane,
            capacity: workers + queue,
            state: Mutex::new(State::default()),
            work: Condvar::new(),
            freed: Notify::new(),
            queue_gauge: metrics::gauge!("gamebot_compute_queue_depth", "lane" => lane),
            running_gauge: metrics::gauge!("gamebot_compute_running", "lane" => lane),
        });
        shared.publish(&shared.lock());
        let handles = (0..workers)
            .map(|i| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("gamebot-{lane}-{i}"))
                    .stack_size(16 << 20)
                    .spawn(move || work(&shared))
                    .expect("the OS refused to start a compute thread")
            })
            .collect();
        ComputePool {
            shared,
            workers: handles,
        }
    }

    /// Runs `warm` once on each worker thread and returns when all have:
    /// what a worker builds on first use (its thread's search tables) is
    /// then built before the first request. Each waits for the others, so
    /// that no worker runs it twice.
    pub async fn on_every_worker(&self, warm: fn()) {
        let workers = self.workers();
        let barrier = Arc::new(std::sync::Barrier::new(workers));
        let jobs: Vec<_> = (0..workers)
            .filter_map(|_| {
                let barrier = barrier.clone();
                self.submit(&Client::local(), move |_| {
                    warm();
                    barrier.wait();
                })
                .ok()
            })
            .collect();
        for job in jobs {
            let _ = job.await;
        }
    }

    /// Worker threads.
    pub fn workers(&self) -> usize {
        self.workers.len()
    }

    /// The most jobs running and queued at once.
    pub fn capacity(&self) -> usize {
        self.shared.capacity
    }

    /// Jobs admitted and not finished (queued + running).
    pub fn admitted(&self) -> usize {
        self.shared.lock().admitted
    }

    /// Jobs being executed right now.
    pub fn running(&self) -> usize {
        self.shared.lock().running.len()
    }

    /// Jobs waiting for a worker.
    pub fn queued(&self) -> usize {
        self.shared.lock().queued_len()
    }

    /// Runs `job` on a worker for `client` and waits for its value without
    /// blocking the runtime.
    ///
    /// Fails at once when the admission budget (or the client's own limit)
    /// is full. If the returned future is dropped before the job ends, the
    /// job's stop flag is raised (and a job that has not started yet leaves
    /// the queue at once).
    pub async fn run<T, F>(&self, client: &Client, job: F) -> Result<T, ComputeError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> T + Send + 'static,
    {
        self.submit(client, job)?.await
    }

    /// Admits `job` now (or fails) and queues it; the returned future waits
    /// for its value, and dropping it cancels the job as for
    /// [`ComputePool::run`]. For a caller that must know it was admitted
    /// before it answers (a stream's headers).
    pub fn submit<T, F>(&self, client: &Client, job: F) -> Result<Pending<T>, ComputeError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> T + Send + 'static,
    {
        self.submit_by(client, None, job)
    }

    /// [`ComputePool::submit`] for a job that may wait for a worker at most
    /// `max_wait` (whole milliseconds) if given: one that waited longer is
    /// not run, and its caller gets [`ComputeError::QueuedTooLong`] (a
    /// request that would rather be refused than answered with what little
    /// time is left).
    pub fn submit_by<T, F>(
        &self,
        client: &Client,
        max_wait: Option<Duration>,
        job: F,
    ) -> Result<Pending<T>, ComputeError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> T + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let task: Job = Box::new(move |stop, refusal| {
            let result = match refusal {
                Some(refusal) => Err(refusal),
                None => catch_unwind(AssertUnwindSafe(|| job(stop)))
                    .map_err(|payload| ComputeError::Panicked(panic_message(payload))),
            };
            Box::new(move || {
                let _ = reply.send(result);
            })
        });
        let ticket = self.enqueue(client, task, max_wait)?;
        Ok(Pending { answer, ticket })
    }

    /// [`ComputePool::submit`], waiting for a place while the pool or the
    /// client's limit is full instead of failing (for the later parts of a
    /// request already admitted, such as a review's next positions).
    pub async fn submit_waiting<T, F>(
        &self,
        client: &Client,
        job: F,
    ) -> Result<Pending<T>, ComputeError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> T + Send + 'static,
    {
        let job = Arc::new(Mutex::new(Some(job)));
        loop {
            let freed = self.shared.freed.notified();
            tokio::pin!(freed);
            freed.as_mut().enable();
            let attempt = job.clone();
            // Only an admitted attempt runs, so the job is there to take.
            let result = self.submit(client, move |stop| {
                let job = attempt
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .take()
                    .expect("only the admitted attempt runs the job");
                job(stop)
            });
            match result {
                Err(ComputeError::Overloaded { .. } | ComputeError::ClientLimit { .. }) => {
                    // A place given back wakes us; the timeout covers a
                    // place freed between the attempt and the wait.
                    let _ = tokio::time::timeout(Duration::from_millis(50), freed).await;
                }
                other => return other,
            }
        }
    }

    /// Queues `task` for `client` if the budgets allow it.
    fn enqueue(
        &self,
        client: &Client,
        task: Job,
        max_wait: Option<Duration>,
    ) -> Result<Ticket, ComputeError> {
        let shared = &self.shared;
        let mut state = shared.lock();
        if state.closed {
            return Err(ComputeError::ShuttingDown);
        }
        let of_client = state.admitted_by.get(&client.id).copied().unwrap_or(0);
        if let Some(limit) = client.limit.filter(|&limit| of_client >= limit) {
            drop(state);
            count_job(shared.lane, client, "limited");
            return Err(ComputeError::ClientLimit {
                name: client.class.to_string(),
                limit,
            });
        }
        if state.admitted >= shared.capacity {
            drop(state);
            count_job(shared.lane, client, "refused");
            metrics::counter!("gamebot_compute_rejected_total", "lane" => shared.lane).increment(1);
            return Err(ComputeError::Overloaded {
                capacity: shared.capacity,
                retry_after_s: 1,
            });
        }
        state.next_id += 1;
        let id = state.next_id;
        state.admitted += 1;
        *state.admitted_by.entry(client.id.clone()).or_insert(0) += 1;
        let stop = StopFlag::new();
        let queued = Queued {
            id,
            job: task,
            stop: stop.clone(),
            queued_at: Instant::now(),
            max_wait,
        };
        if !state.queued.contains_key(&client.id) {
            state.turns.push_back(client.id.clone());
        }
        state
            .queued
            .entry(client.id.clone())
            .or_default()
            .push_back(queued);
        shared.publish(&state);
        drop(state);
        shared.work.notify_one();
        count_job(shared.lane, client, "admitted");
        Ok(Ticket {
            shared: shared.clone(),
            client: client.id.clone(),
            id,
            stop,
        })
    }

    /// Stops taking work: queued jobs are dropped (their callers are told
    /// the pool stopped) and running ones are asked to stop, so that the
    /// workers are free soon and the pool can be dropped without waiting
    /// for long searches.
    pub fn close(&self) {
        let shared = &self.shared;
        let mut state = shared.lock();
        state.closed = true;
        let clients: Vec<Arc<str>> = state.queued.keys().cloned().collect();
        let mut dropped = Vec::new();
        for client in clients {
            if let Some(jobs) = state.queued.remove(&client) {
                for job in jobs {
                    state.release(&client);
                    dropped.push(job);
                }
            }
        }
        state.turns.clear();
        for stop in state.running.values() {
            stop.raise();
        }
        shared.publish(&state);
        drop(state);
        // Dropped outside the lock: each drop closes a caller's channel.
        drop(dropped);
        shared.work.notify_all();
        shared.freed.notify_waiters();
    }
}

/// A worker: takes the next job in turn and runs it, until the pool closes.
fn work(shared: &Shared) {
    loop {
        let (client, queued) = {
            let mut state = shared.lock();
            loop {
                if let Some(next) = state.next_job() {
                    state.running.insert(next.1.id, next.1.stop.clone());
                    shared.publish(&state);
                    break next;
                }
                if state.closed {
                    return;
                }
                state = shared
                    .work
                    .wait(state)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
        };
        metrics::histogram!("gamebot_compute_wait_seconds", "lane" => shared.lane)
            .record(queued.queued_at.elapsed().as_secs_f64());
        let Queued {
            id,
            job,
            stop,
            queued_at,
            max_wait,
        } = queued;
        let waited_ms = queued_at.elapsed().as_millis() as u64;
        let late = max_wait
            .map(|allowed| allowed.as_millis() as u64)
            .filter(|&allowed_ms| waited_ms > allowed_ms)
            .map(|allowed_ms| ComputeError::QueuedTooLong {
                waited_ms,
                allowed_ms,
            });
        let deliver = (!stop.is_raised()).then(|| job(&stop, late));
        shared.finish(&client, Some(id));
        if let Some(deliver) = deliver {
            deliver();
        }
    }
}

/// Counts a job's admission by lane, client class and result.
fn count_job(lane: &'static str, client: &Client, result: &'static str) {
    metrics::counter!(
        "gamebot_compute_jobs_total",
        "lane" => lane,
        "class" => client.class.to_string(),
        "result" => result
    )
    .increment(1);
}

/// A caller's hold on an admitted job: dropped, it takes the job out of
/// the queue (giving its place back at once) or, if it is running, raises
/// its stop flag.
struct Ticket {
    shared: Arc<Shared>,
    client: Arc<str>,
    id: u64,
    stop: StopFlag,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.stop.raise();
        let mut state = self.shared.lock();
        let Some(withdrawn) = state.withdraw(&self.client, self.id) else {
            return;
        };
        state.release(&self.client);
        self.shared.publish(&state);
        drop(state);
        drop(withdrawn);
        self.shared.freed.notify_waiters();
    }
}

/// A job admitted to a pool: resolves to its value; dropped, it cancels the job.
pub struct Pending<T> {
    answer: oneshot::Receiver<Result<T, ComputeError>>,
    ticket: Ticket,
}

impl<T> Pending<T> {
    /// The stop flag of the job, raised when the job is cancelled.
    pub fn stop_flag(&self) -> &StopFlag {
        &self.ticket.stop
    }
}

impl<T> std::future::Future for Pending<T> {
    type Output = Result<T, ComputeError>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let shared = self.ticket.shared.clone();
        std::pin::Pin::new(&mut self.answer)
            .poll(cx)
            .map(|answer| match answer {
                Ok(result) => result,
                // Only a job dropped unanswered asks why: a closed pool.
                Err(_) if shared.lock().closed => Err(ComputeError::ShuttingDown),
                Err(_) => Err(ComputeError::Panicked(
                    "the job ended without an answer".into(),
                )),
            })
    }
}

impl Drop for ComputePool {
    /// Closes the pool and waits for the workers to finish what they hold
    /// (asked to stop, they end within a few milliseconds).
    fn drop(&mut self) {
        self.close();
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
mod tests;
