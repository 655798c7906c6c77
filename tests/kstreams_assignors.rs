//! Kafka's own assignor unit tests, case by case, on lbscope's assignors. Each
//! module is named after the upstream test class and each test after its method
//! (snake case); the expected values are that method's assertions unless a
//! comment says they were derived by reading the class.

#[path = "support/assign.rs"]
mod assign;

use assign::{client, configs, run, t, tasks, Which};
use lbscope::engine::kstreams::Config;

/// `streams/.../internals/assignment/HighAvailabilityTaskAssignorTest`.
mod high_availability_task_assignor_test {
    use super::*;

    fn nine() -> Vec<lbscope::engine::kstreams::TaskId> {
        vec![
            t(0, 0),
            t(0, 1),
            t(0, 2),
            t(1, 0),
            t(1, 1),
            t(1, 2),
            t(2, 0),
            t(2, 1),
            t(2, 2),
        ]
    }

    /// From shouldBeStickyForActiveAndStandbyTasksWhileWarmingUp's assertions.
    #[test]
    fn should_be_sticky_for_active_and_standby_tasks_while_warming_up() {
        let all = nine();
        let c1 = client(1, 1).active(&all).lag(&all, 0);
        let c2 = client(2, 1).standby(&all).lag(&all, 10);
        let c3 = client(3, 1).lag(&all, i64::MAX);
        let out = run(
            Which::HighAvailability,
            tasks(&all, &[]),
            &[c1, c2, c3],
            &configs(11, 2, 1),
            None,
        );
        assert_eq!(out.assigned(1), 9);
        assert_eq!(out.assigned(2), 9);
        assert_eq!(out.assigned(3), 2);
        assert!(out.probing);
    }

    /// From shouldSkipWarmupsWhenAcceptableLagIsMax's assertions.
    #[test]
    fn should_skip_warmups_when_acceptable_lag_is_max() {
        let all = nine();
        let c1 = client(1, 1).active(&all).lag(&all, 0);
        let c2 = client(2, 1).lag(&all, i64::MAX);
        let c3 = client(3, 1).lag(&all, i64::MAX);
        let out = run(
            Which::HighAvailability,
            tasks(&all, &[]),
            &[c1, c2, c3],
            &configs(u64::MAX, 1, 1),
            None,
        );
        assert_eq!(out.assigned(1), 6);
        assert_eq!(out.assigned(2), 6);
        assert_eq!(out.assigned(3), 6);
        assert!(!out.probing);
    }

    /// From shouldComputeNewAssignmentIfActiveTasksWasNotOnCaughtUpClient's assertions.
    #[test]
    fn should_compute_new_assignment_if_active_tasks_was_not_on_caught_up_client() {
        let c1 = client(1, 1).active(&[t(0, 0)]).lag(&[t(0, 0)], 500);
        let c2 = client(2, 1).active(&[t(0, 1)]).lag(&[t(0, 0)], 0);
        let out = run(
            Which::HighAvailability,
            tasks(&[t(0, 0)], &[t(0, 1)]),
            &[c1, c2],
            &configs(100, 2, 0),
            None,
        );
        assert_eq!(out.active(1), vec![t(0, 1)]);
        assert_eq!(out.active(2), vec![t(0, 0)]);
        assert!(out.probing);
    }

    /// From shouldAssignToMostCaughtUpIfActiveTasksWasNotOnCaughtUpClient's assertions.
    #[test]
    fn should_assign_to_most_caught_up_if_active_tasks_was_not_on_caught_up_client() {
        let x = [t(0, 0)];
        let c1 = client(1, 1).lag(&x, i64::MAX);
        let c2 = client(2, 1).lag(&x, 1000);
        let c3 = client(3, 1).lag(&x, 500);
        let out = run(
            Which::HighAvailability,
            tasks(&x, &[]),
            &[c1, c2, c3],
            &configs(100, 2, 1),
            None,
        );
        assert!(out.active(1).is_empty());
        assert!(out.active(2).is_empty());
        assert_eq!(out.active(3), vec![t(0, 0)]);
        assert_eq!(out.standby(1), vec![t(0, 0)], "warm-up");
        assert_eq!(out.standby(2), vec![t(0, 0)], "standby");
        assert!(out.standby(3).is_empty());
        assert!(out.probing);
    }

    /// From shouldAssignStandbysForStatefulTasks's assertions.
    #[test]
    fn should_assign_standbys_for_stateful_tasks() {
        let st = [t(0, 0), t(0, 1)];
        let c1 = client(1, 1).caught_up(&[t(0, 0)], &st);
        let c2 = client(2, 1).caught_up(&[t(0, 1)], &st);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &[c1, c2],
            &configs(100, 2, 1),
            None,
        );
        assert_eq!(out.active(1), vec![t(0, 0)]);
        assert_eq!(out.active(2), vec![t(0, 1)]);
        assert_eq!(out.standby(1), vec![t(0, 1)]);
        assert_eq!(out.standby(2), vec![t(0, 0)]);
        assert!(!out.probing);
    }

    /// From shouldNotAssignMoreThanMaxWarmupReplicas's assertions.
    #[test]
    fn should_not_assign_more_than_max_warmup_replicas() {
        let st = [t(0, 0), t(0, 1), t(0, 2), t(0, 3)];
        let c1 = client(1, 1).caught_up(&st, &st);
        let c2 = client(2, 1).caught_up(&[], &st);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &[c1, c2],
            &configs(100, 1, 0),
            None,
        );
        assert_eq!(out.active(1), st.to_vec());
        assert_eq!(out.standby(2).len(), 1);
        assert!(out.standby(1).is_empty());
        assert!(out.active(2).is_empty());
        assert!(out.probing);
    }

    /// From shouldNotAssignWarmupAndStandbyToTheSameClient's assertions.
    #[test]
    fn should_not_assign_warmup_and_standby_to_the_same_client() {
        let st = [t(0, 0), t(0, 1), t(0, 2), t(0, 3)];
        let c1 = client(1, 1).caught_up(&st, &st);
        let c2 = client(2, 1).caught_up(&[], &st);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &[c1, c2],
            &configs(100, 1, 1),
            None,
        );
        assert_eq!(out.active(1), st.to_vec());
        assert_eq!(out.standby(2), st.to_vec());
        assert!(out.standby(1).is_empty());
        assert!(out.active(2).is_empty());
        assert!(out.probing);
    }

    /// From shouldNotAssignAnyStandbysWithInsufficientCapacity's assertions.
    #[test]
    fn should_not_assign_any_standbys_with_insufficient_capacity() {
        let st = [t(0, 0), t(0, 1)];
        let c1 = client(1, 1).caught_up(&st, &st);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &[c1],
            &configs(100, 2, 1),
            None,
        );
        assert_eq!(out.active(1), st.to_vec());
        assert!(out.standby(1).is_empty());
        assert!(!out.probing);
    }

    /// From shouldAssignActiveTasksToNotCaughtUpClientIfNoneExist's assertions.
    #[test]
    fn should_assign_active_tasks_to_not_caught_up_client_if_none_exist() {
        let st = [t(0, 0), t(0, 1)];
        let c1 = client(1, 1).caught_up(&[], &st);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &[c1],
            &configs(100, 2, 1),
            None,
        );
        assert_eq!(out.active(1), st.to_vec());
        assert!(out.standby(1).is_empty());
        assert!(!out.probing);
    }

    /// From shouldReturnFalseIfPreviousAssignmentIsReused's assertions (the case
    /// without rack-aware assignment: client 1 caught up on 0_0 and 0_2).
    #[test]
    fn should_return_false_if_previous_assignment_is_reused() {
        let st = [t(0, 0), t(0, 1), t(0, 2), t(0, 3)];
        let c1 = client(1, 1).caught_up(&[t(0, 0), t(0, 2)], &st);
        let c2 = client(2, 1).caught_up(&[t(0, 1), t(0, 3)], &st);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &[c1, c2],
            &configs(100, 2, 0),
            None,
        );
        assert!(!out.probing);
        assert_eq!(out.active(1), vec![t(0, 0), t(0, 2)]);
        assert_eq!(out.active(2), vec![t(0, 1), t(0, 3)]);
    }

    /// From shouldReturnTrueIfWarmupTasksAreAssigned's assertions.
    #[test]
    fn should_return_true_if_warmup_tasks_are_assigned() {
        let st = [t(0, 0), t(0, 1)];
        let c1 = client(1, 1).caught_up(&st, &st);
        let c2 = client(2, 1).caught_up(&[], &st);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &[c1, c2],
            &configs(100, 2, 0),
            None,
        );
        assert!(out.probing);
        assert_eq!(out.standby(2).len(), 1);
    }

    /// From shouldDistributeStatelessTasksToBalanceTotalTaskLoad: client 1 is the
    /// only caught-up client, so it keeps every stateful active and client 2 gets
    /// the stateless ones (the test asserts the skew and a probing rebalance).
    #[test]
    fn should_distribute_stateless_tasks_to_balance_total_task_load() {
        let st = [t(0, 0), t(0, 1), t(0, 2), t(0, 3)];
        let sl = [t(1, 0), t(1, 1), t(1, 2)];
        let c1 = client(1, 1).caught_up(&st, &st);
        let c2 = client(2, 1).caught_up(&[], &st);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &sl),
            &[c1, c2],
            &configs(100, 2, 1),
            None,
        );
        out.assert_valid();
        assert_eq!(out.active(1), st.to_vec());
        assert_eq!(out.active(2), sl.to_vec());
        assert!(out.probing);
    }

    /// From shouldAssignActiveStatefulTasksEvenlyOverClientsWithMoreClientsThanTasks:
    /// every task lands on a different client.
    #[test]
    fn should_assign_active_stateful_tasks_evenly_over_clients_with_more_clients_than_tasks() {
        let st = [t(0, 0), t(0, 1)];
        let cs: Vec<_> = (1..=3).map(|n| client(n, 1).caught_up(&[], &st)).collect();
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &cs,
            &configs(100, 2, 0),
            None,
        );
        out.assert_valid();
        let busy = (1..=3).filter(|&n| !out.active(n).is_empty()).count();
        assert_eq!(busy, 2);
        assert!(!out.probing);
    }
}

/// `streams/.../internals/assignment/TaskMovementTest`, through the
/// high-availability assignor that calls `assignActiveTaskMovements`.
mod task_movement_test {
    use super::*;

    /// From shouldAssignTasksToClientsAndReturnFalseWhenAllClientsCaughtUp: with
    /// every client caught up nothing is moved back and no warm-up is made.
    #[test]
    fn should_assign_tasks_to_clients_and_return_false_when_all_clients_caught_up() {
        let st = [t(0, 0), t(0, 1), t(0, 2), t(1, 0), t(1, 1), t(1, 2)];
        let cs: Vec<_> = (1..=3).map(|n| client(n, 1).lag(&st, 0)).collect();
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &cs,
            &configs(100, 2, 0),
            None,
        );
        assert!(!out.probing);
        assert!(out.warmups.is_empty());
        for n in 1..=3 {
            assert_eq!(out.active(n).len(), 2);
        }
    }

    /// From shouldAssignAllTasksToClientsAndReturnFalseIfNoClientsAreCaughtUp.
    #[test]
    fn should_assign_all_tasks_to_clients_and_return_false_if_no_clients_are_caught_up() {
        let st = [t(0, 0), t(0, 1), t(0, 2), t(1, 0), t(1, 1), t(1, 2)];
        let cs: Vec<_> = (1..=3).map(|n| client(n, 1).lag(&st, i64::MAX)).collect();
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &cs,
            &configs(100, 2, 0),
            None,
        );
        assert!(!out.probing);
        out.assert_valid();
    }

    /// From shouldOnlyGetUpToMaxWarmupReplicasAndReturnTrue: one caught-up client,
    /// `max.warmup.replicas` = 1, so one warm-up.
    #[test]
    fn should_only_get_up_to_max_warmup_replicas_and_return_true() {
        let st = [t(0, 0), t(0, 1), t(0, 2)];
        let c1 = client(1, 1).caught_up(&st, &st);
        let c2 = client(2, 1).caught_up(&[], &st);
        let c3 = client(3, 1).caught_up(&[], &st);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &[c1, c2, c3],
            &configs(100, 1, 0),
            None,
        );
        assert!(out.probing);
        assert_eq!(out.warmups.len(), 1);
        assert_eq!(out.active(1), st.to_vec());
    }
}

/// The sticky cases Kafka runs on both `LegacyStickyTaskAssignorTest` and KIP-924's
/// `CustomStickyTaskAssignorTest` (same method names and assertions).
macro_rules! sticky_cases {
    ($which:expr) => {
        use super::*;

        fn cfg(standbys: u32) -> Config {
            configs(0, 1, standbys)
        }

        #[test]
        fn should_assign_one_active_task_to_each_process_when_task_count_same_as_process_count() {
            let cs: Vec<_> = (1..=3).map(|n| client(n, 1)).collect();
            let out = run(
                $which,
                tasks(&[], &[t(0, 0), t(0, 1), t(0, 2)]),
                &cs,
                &cfg(0),
                None,
            );
            for n in 1..=3 {
                assert_eq!(out.assigned(n), 1);
            }
        }

        #[test]
        fn should_not_migrate_active_task_to_other_process() {
            let ts = tasks(&[], &[t(0, 0), t(0, 1), t(0, 2)]);
            let out = run(
                $which,
                ts.clone(),
                &[
                    client(1, 1).active(&[t(0, 0)]),
                    client(2, 1).active(&[t(0, 1)]),
                ],
                &cfg(0),
                None,
            );
            assert!(out.active(1).contains(&t(0, 0)));
            assert!(out.active(2).contains(&t(0, 1)));
            let out = run(
                $which,
                ts,
                &[
                    client(1, 1).active(&[t(0, 1)]),
                    client(2, 1).active(&[t(0, 0)]),
                ],
                &cfg(0),
                None,
            );
            assert!(out.active(1).contains(&t(0, 1)));
            assert!(out.active(2).contains(&t(0, 0)));
        }

        #[test]
        fn should_assign_based_on_capacity() {
            let out = run(
                $which,
                tasks(&[], &[t(0, 0), t(0, 1), t(0, 2)]),
                &[client(1, 1), client(2, 2)],
                &cfg(0),
                None,
            );
            assert_eq!(out.assigned(1), 1);
            assert_eq!(out.assigned(2), 2);
        }

        #[test]
        fn should_keep_active_task_stickiness_when_more_client_than_active_tasks() {
            let cs = [
                client(1, 1).active(&[t(0, 0)]),
                client(2, 1).active(&[t(0, 2)]),
                client(3, 1).active(&[t(0, 1)]),
                client(4, 1),
                client(5, 1),
            ];
            let out = run(
                $which,
                tasks(&[], &[t(0, 0), t(0, 1), t(0, 2)]),
                &cs,
                &cfg(0),
                None,
            );
            assert_eq!(out.active(1), vec![t(0, 0)]);
            assert_eq!(out.active(2), vec![t(0, 2)]);
            assert_eq!(out.active(3), vec![t(0, 1)]);
            assert_eq!(out.assigned(4), 0);
            assert_eq!(out.assigned(5), 0);
        }

        #[test]
        fn should_assign_tasks_to_client_with_previous_standby_tasks() {
            let cs = [
                client(1, 1).standby(&[t(0, 2)]),
                client(2, 1).standby(&[t(0, 1)]),
                client(3, 1).standby(&[t(0, 0)]),
            ];
            let out = run(
                $which,
                tasks(&[], &[t(0, 0), t(0, 1), t(0, 2)]),
                &cs,
                &cfg(0),
                None,
            );
            assert_eq!(out.active(1), vec![t(0, 2)]);
            assert_eq!(out.active(2), vec![t(0, 1)]);
            assert_eq!(out.active(3), vec![t(0, 0)]);
        }

        #[test]
        fn should_assign_based_on_capacity_when_multiple_client_have_standby_tasks() {
            let cs = [
                client(1, 1).active(&[t(0, 0)]).standby(&[t(0, 1)]),
                client(2, 2).active(&[t(0, 2)]).standby(&[t(0, 1)]),
            ];
            let out = run(
                $which,
                tasks(&[], &[t(0, 0), t(0, 1), t(0, 2)]),
                &cs,
                &cfg(0),
                None,
            );
            assert_eq!(out.active(1), vec![t(0, 0)]);
            assert_eq!(out.active(2), vec![t(0, 1), t(0, 2)]);
        }

        #[test]
        fn should_assign_multiple_replicas_of_standby_task() {
            let st = [t(0, 0), t(0, 1), t(0, 2)];
            let cs = [
                client(1, 1).active(&[t(0, 0)]),
                client(2, 1).active(&[t(0, 1)]),
                client(3, 1).active(&[t(0, 2)]),
            ];
            let out = run($which, tasks(&st, &[]), &cs, &cfg(2), None);
            assert_eq!(out.active(1), vec![t(0, 0)]);
            assert_eq!(out.active(2), vec![t(0, 1)]);
            assert_eq!(out.active(3), vec![t(0, 2)]);
            assert_eq!(out.standby(1), vec![t(0, 1), t(0, 2)]);
            assert_eq!(out.standby(2), vec![t(0, 0), t(0, 2)]);
            assert_eq!(out.standby(3), vec![t(0, 0), t(0, 1)]);
        }

        #[test]
        fn should_not_assign_standby_task_replicas_when_no_client_available_without_having_the_task_assigned()
        {
            let out = run(
                $which,
                tasks(&[t(0, 0)], &[]),
                &[client(1, 1).active(&[t(0, 0)])],
                &cfg(2),
                None,
            );
            assert_eq!(out.active(1), vec![t(0, 0)]);
            assert!(out.standby(1).is_empty());
        }

        #[test]
        fn should_assign_more_tasks_to_client_with_more_capacity() {
            let ts: Vec<_> = (0..4).flat_map(|s| (0..3).map(move |p| t(s, p))).collect();
            let out = run(
                $which,
                tasks(&[], &ts),
                &[client(1, 1), client(2, 2)],
                &cfg(0),
                None,
            );
            assert_eq!(out.active(1).len(), 4);
            assert_eq!(out.active(2).len(), 8);
        }
    };
}

/// `streams/.../internals/assignment/LegacyStickyTaskAssignorTest`.
mod legacy_sticky_task_assignor_test {
    sticky_cases!(Which::LegacySticky);
}

/// KIP-924's `StickyTaskAssignor` (`processor.assignment.assignors`), whose upstream
/// test is `streams/.../internals/assignment/CustomStickyTaskAssignorTest`.
mod custom_sticky_task_assignor_test {
    sticky_cases!(Which::Sticky);

    /// Derived by reading `StickyTaskAssignor.findLeastLoadedClient` (strictly
    /// lower load) against `LegacyStickyTaskAssignor.findLeastLoaded`
    /// (`hasMoreAvailableCapacityThan`: equal load and more threads wins): with
    /// one client of 1 thread and 1 task and one of 2 threads and 2 tasks (both
    /// load 1), a new task goes to the first client in KIP-924's assignor and to the
    /// two-thread client in the legacy one.
    #[test]
    fn equal_loads_keep_the_first_client_where_the_legacy_assignor_prefers_more_threads() {
        let ts = tasks(&[], &[t(0, 0), t(0, 1), t(0, 2), t(0, 3)]);
        let cs = [
            client(1, 1).active(&[t(0, 0)]),
            client(2, 2).active(&[t(0, 1), t(0, 2)]),
        ];
        // floor(4 / 3) = 1 active per thread: 1 may keep one, 2 may keep two.
        let kip = run(Which::Sticky, ts.clone(), &cs, &cfg(0), None);
        assert_eq!(kip.active(1), vec![t(0, 0), t(0, 3)]);
        let legacy = run(Which::LegacySticky, ts, &cs, &cfg(0), None);
        assert_eq!(legacy.active(2), vec![t(0, 1), t(0, 2), t(0, 3)]);
    }
}
