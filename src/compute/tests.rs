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

async fn until(what: impl Fn() -> bool) {
    let started = Instant::now();
    while !what() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "never happened"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

fn local() -> Client {
    Client::local()
}

#[tokio::test]
async fn runs_a_job_and_returns_its_value() {
    let pool = ComputePool::new(1, 0);
    assert_eq!(pool.run(&local(), |_| 6 * 7).await, Ok(42));
    assert_eq!(pool.admitted(), 0);
}

#[tokio::test]
async fn a_full_pool_refuses_at_once() {
    let pool = Arc::new(ComputePool::new(1, 1));
    let (a, b) = (pool.clone(), pool.clone());
    let first = tokio::spawn(async move {
        a.run(&local(), |s| spin(s, Duration::from_millis(300)))
            .await
    });
    let second = tokio::spawn(async move {
        b.run(&local(), |s| spin(s, Duration::from_millis(300)))
            .await
    });
    until(|| pool.admitted() == 2).await;
    let refused = pool.run(&local(), |_| ()).await;
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
            .run(&local(), move |s| {
                let was_stopped = spin(s, Duration::from_secs(30));
                *flag.lock().unwrap() = Some(was_stopped);
            })
            .await
    });
    until(|| pool.running() == 1).await;
    waiting.abort();
    until(|| pool.admitted() == 0).await;
    assert_eq!(*stopped.lock().unwrap(), Some(true));
    assert_eq!(pool.run(&local(), |_| "next").await, Ok("next"));
}

#[tokio::test]
async fn a_caller_that_leaves_the_queue_gives_its_place_back_at_once() {
    let pool = Arc::new(ComputePool::new(1, 1));
    let busy = pool
        .submit(&local(), |s| spin(s, Duration::from_secs(30)))
        .unwrap();
    until(|| pool.running() == 1).await;
    let queued = pool.submit(&local(), |_| "never").unwrap();
    assert_eq!(pool.queued(), 1);
    assert!(pool.submit(&local(), |_| ()).is_err(), "the pool is full");
    drop(queued);
    // The running job still holds its worker; the queued place is free.
    assert_eq!(pool.queued(), 0);
    assert_eq!(pool.admitted(), 1);
    let next = pool.submit(&local(), |_| "admitted").unwrap();
    drop(busy);
    assert_eq!(next.await, Ok("admitted"));
}

#[tokio::test]
async fn a_panicking_job_is_reported_and_the_worker_survives() {
    let pool = ComputePool::new(1, 0);
    let result: Result<(), _> = pool.run(&local(), |_| panic!("boom")).await;
    assert_eq!(result, Err(ComputeError::Panicked("boom".into())));
    assert_eq!(pool.run(&local(), |_| 1).await, Ok(1));
}

#[tokio::test]
async fn clients_are_served_in_turn_whatever_one_of_them_has_queued() {
    let pool = Arc::new(ComputePool::new(1, 200));
    let gate = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let order = Arc::new(Mutex::new(Vec::new()));
    let hog = Client::anonymous("10.0.0.1");
    let other = Client::anonymous("10.0.0.2");
    let held = gate.clone();
    let first = pool
        .submit(&hog, move |_| {
            while !held.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::yield_now();
            }
        })
        .unwrap();
    until(|| pool.running() == 1).await;
    let mut waiting = Vec::new();
    for i in 0..100 {
        let order = order.clone();
        waiting.push(
            pool.submit(&hog, move |_| {
                order.lock().unwrap().push(format!("hog {i}"))
            })
            .unwrap(),
        );
    }
    let seen = order.clone();
    let theirs = pool
        .submit(&other, move |_| seen.lock().unwrap().push("other".into()))
        .unwrap();
    gate.store(true, std::sync::atomic::Ordering::Relaxed);
    first.await.unwrap();
    theirs.await.unwrap();
    for job in waiting {
        job.await.unwrap();
    }
    let order = order.lock().unwrap();
    let at = order.iter().position(|who| who == "other").unwrap();
    assert!(
        at <= 1,
        "the other client waited behind {at} of the hog's jobs"
    );
}

#[tokio::test]
async fn a_client_limit_refuses_beyond_it_and_others_are_unaffected() {
    let pool = Arc::new(ComputePool::new(2, 10));
    let limited = Client::keyed("portal", Some(1));
    let busy = pool
        .submit(&limited, |s| spin(s, Duration::from_secs(30)))
        .unwrap();
    let refused = pool.submit(&limited, |_| ());
    assert!(matches!(
        refused,
        Err(ComputeError::ClientLimit { limit: 1, ref name }) if name == "portal"
    ));
    assert_eq!(pool.run(&Client::keyed("other", None), |_| 3).await, Ok(3));
    drop(busy);
    until(|| pool.admitted() == 0).await;
    assert_eq!(pool.run(&limited, |_| 4).await, Ok(4));
}

#[tokio::test]
async fn a_waiting_submission_is_admitted_when_a_place_is_given_back() {
    let pool = Arc::new(ComputePool::new(1, 0));
    let busy = pool
        .submit(&local(), |s| spin(s, Duration::from_secs(30)))
        .unwrap();
    let waiter = {
        let pool = pool.clone();
        tokio::spawn(async move { pool.submit_waiting(&local(), |_| 5).await.unwrap().await })
    };
    tokio::time::sleep(Duration::from_millis(30)).await;
    assert!(!waiter.is_finished());
    drop(busy);
    assert_eq!(waiter.await.unwrap(), Ok(5));
}

#[tokio::test]
async fn closing_stops_running_jobs_and_refuses_new_ones() {
    let pool = Arc::new(ComputePool::new(1, 5));
    let running = pool
        .submit(&local(), |s| spin(s, Duration::from_secs(30)))
        .unwrap();
    until(|| pool.running() == 1).await;
    let queued = pool.submit(&local(), |_| 1).unwrap();
    pool.close();
    assert_eq!(running.await, Ok(true), "the running job was asked to stop");
    assert_eq!(queued.await, Err(ComputeError::ShuttingDown));
    assert!(matches!(
        pool.submit(&local(), |_| ()),
        Err(ComputeError::ShuttingDown)
    ));
}

#[tokio::test]
async fn a_job_that_waited_longer_than_it_allows_is_refused_not_run() {
    let pool = Arc::new(ComputePool::new(1, 4));
    let busy = pool
        .submit(&local(), |s| spin(s, Duration::from_millis(150)))
        .unwrap();
    until(|| pool.running() == 1).await;
    let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = ran.clone();
    let late = pool
        .submit_by(&local(), Some(Duration::from_millis(20)), move |_| {
            seen.store(true, std::sync::atomic::Ordering::SeqCst)
        })
        .unwrap();
    let in_time = pool
        .submit_by(&local(), Some(Duration::from_secs(30)), |_| 7)
        .unwrap();
    busy.await.unwrap();
    let refused = late.await;
    assert!(
        matches!(refused, Err(ComputeError::QueuedTooLong { allowed_ms, waited_ms }) if allowed_ms == 20 && waited_ms > 20),
        "{refused:?}"
    );
    assert!(
        !ran.load(std::sync::atomic::Ordering::SeqCst),
        "never searched"
    );
    assert_eq!(in_time.await, Ok(7));
}
