//! Kafka's own assignor unit tests, case by case, on lbscope's assignors. Each
//! module is named after the upstream test class and each test after its method
//! (snake case); the expected values are that method's assertions unless a
//! comment says they were derived by reading the class.

use crate::support::assign;

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

/// The group coordinator's `group-coordinator/.../streams/assignor/StickyTaskAssignorTest`
/// (a member is a stream thread, a process an instance: `client(n, members)`).
mod streams_group_sticky_task_assignor_test {
    use super::*;

    fn cfg(standbys: u32) -> Config {
        Config {
            group_protocol: lbscope::engine::kstreams::GroupProtocol::Streams,
            streams_num_standby_replicas: Some(standbys),
            ..Config::default()
        }
    }

    fn sub(s: u32, n: u32) -> Vec<lbscope::engine::kstreams::TaskId> {
        (0..n).map(|p| t(s, p)).collect()
    }

    #[test]
    fn should_assign_one_active_task_to_each_process_when_task_count_same_as_process_count() {
        let cs: Vec<_> = (1..=3).map(|n| client(n, 1)).collect();
        let out = run(Which::StreamsGroup, tasks(&[], &sub(0, 3)), &cs, &cfg(0), None);
        for n in 1..=3 {
            assert_eq!(out.member_active(n, 0).len(), 1);
        }
        out.assert_valid();
    }

    #[test]
    fn should_assign_topic_group_id_evenly_across_clients_with_no_stand_by_tasks() {
        let ts = [sub(0, 3), sub(1, 3)].concat();
        let cs: Vec<_> = (1..=3).map(|n| client(n, 2)).collect();
        let out = run(Which::StreamsGroup, tasks(&[], &ts), &cs, &cfg(0), None);
        for n in 1..=3 {
            for k in 0..2 {
                assert_eq!(out.member_active(n, k).len(), 1, "member{n}_{}", k + 1);
            }
        }
        out.assert_valid();
    }

    #[test]
    fn should_assign_topic_group_id_evenly_across_clients_with_stand_by_tasks() {
        let ts = [sub(0, 3), sub(1, 3)].concat();
        let cs: Vec<_> = (1..=3).map(|n| client(n, 2)).collect();
        let out = run(Which::StreamsGroup, tasks(&ts, &[]), &cs, &cfg(1), None);
        for n in 1..=3 {
            for k in 0..2 {
                assert_eq!(out.member_active(n, k).len(), 1, "member{n}_{}", k + 1);
            }
        }
        out.assert_valid();
    }

    #[test]
    fn should_not_migrate_active_task_to_other_process() {
        let ts = tasks(&[], &sub(0, 3));
        let out = run(
            Which::StreamsGroup,
            ts.clone(),
            &[client(1, 1).active(&[t(0, 0)]), client(2, 1).active(&[t(0, 1)])],
            &cfg(0),
            None,
        );
        assert!(out.active(1).contains(&t(0, 0)));
        assert!(out.active(2).contains(&t(0, 1)));
        assert_eq!(out.active(1).len() + out.active(2).len(), 3);
        // Flipped: process 1's member now held 0_2.
        let out = run(
            Which::StreamsGroup,
            ts,
            &[client(2, 1).active(&[t(0, 1)]), client(1, 1).active(&[t(0, 2)])],
            &cfg(0),
            None,
        );
        assert!(out.active(2).contains(&t(0, 1)));
        assert!(out.active(1).contains(&t(0, 2)));
    }

    #[test]
    fn should_migrate_active_tasks_to_new_process_without_changing_all_assignments() {
        let cs = [
            client(1, 1).active(&[t(0, 0), t(0, 2)]),
            client(2, 1).active(&[t(0, 1)]),
            client(3, 1),
        ];
        let out = run(Which::StreamsGroup, tasks(&[], &sub(0, 3)), &cs, &cfg(0), None);
        let a1 = out.active(1);
        let a3 = out.active(3);
        assert!(a1.contains(&t(0, 0)) || a1.contains(&t(0, 2)));
        assert!(out.active(2).contains(&t(0, 1)));
        assert!(a3.contains(&t(0, 2)) || a3.contains(&t(0, 0)));
        assert_eq!(a1.len() + out.active(2).len() + a3.len(), 3);
    }

    #[test]
    fn should_assign_based_on_capacity() {
        let out = run(
            Which::StreamsGroup,
            tasks(&[], &sub(0, 3)),
            &[client(1, 1), client(2, 2)],
            &cfg(0),
            None,
        );
        assert_eq!(out.member_active(1, 0).len(), 1);
        assert_eq!(out.member_active(2, 0).len(), 1);
        assert_eq!(out.member_active(2, 1).len(), 1);
    }

    #[test]
    fn should_assign_tasks_evenly_with_unequal_topic_group_sizes() {
        let ts = [sub(0, 6), sub(1, 1)].concat();
        let out = run(
            Which::StreamsGroup,
            tasks(&[], &ts),
            &[client(1, 1).active(&ts), client(2, 1)],
            &cfg(0),
            None,
        );
        assert_eq!(out.active(1).len(), 4);
        assert_eq!(out.active(2).len(), 3);
        out.assert_valid();
    }

    #[test]
    fn should_keep_active_task_stickiness_when_more_client_than_active_tasks() {
        let ts = tasks(&[], &sub(0, 3));
        let cs = [
            client(1, 1).active(&[t(0, 0)]),
            client(2, 1).active(&[t(0, 2)]),
            client(3, 1).active(&[t(0, 1)]),
            client(4, 1),
            client(5, 1),
        ];
        let out = run(Which::StreamsGroup, ts.clone(), &cs, &cfg(0), None);
        assert_eq!(out.active(1), vec![t(0, 0)]);
        assert_eq!(out.active(2), vec![t(0, 2)]);
        assert_eq!(out.active(3), vec![t(0, 1)]);
        assert!(out.active(4).is_empty() && out.active(5).is_empty());
        let cs = [
            client(1, 1),
            client(2, 1).active(&[t(0, 0)]),
            client(3, 1),
            client(4, 1).active(&[t(0, 2)]),
            client(5, 1).active(&[t(0, 1)]),
        ];
        let out = run(Which::StreamsGroup, ts, &cs, &cfg(0), None);
        assert!(out.active(1).is_empty() && out.active(3).is_empty());
        assert_eq!(out.active(2), vec![t(0, 0)]);
        assert_eq!(out.active(4), vec![t(0, 2)]);
        assert_eq!(out.active(5), vec![t(0, 1)]);
    }

    #[test]
    fn should_assign_tasks_to_client_with_previous_standby_tasks() {
        let cs = [
            client(1, 1).standby(&[t(0, 2)]),
            client(2, 1).standby(&[t(0, 1)]),
            client(3, 1).standby(&[t(0, 0)]),
        ];
        let out = run(Which::StreamsGroup, tasks(&[], &sub(0, 3)), &cs, &cfg(0), None);
        assert_eq!(out.active(1), vec![t(0, 2)]);
        assert_eq!(out.active(2), vec![t(0, 1)]);
        assert_eq!(out.active(3), vec![t(0, 0)]);
    }

    #[test]
    fn should_assign_tasks_to_client_with_previous_warmup_tasks() {
        let p = |v: &[u32]| v.iter().map(|&x| t(0, x)).collect::<Vec<_>>();
        let cs = [
            client(1, 1).active(&p(&[0, 1, 2])),
            client(2, 1).active(&p(&[3, 4, 5])),
            client(3, 1).active(&p(&[6, 7])).standby(&p(&[8])),
            client(4, 1).active(&p(&[9])),
        ];
        let out = run(Which::StreamsGroup, tasks(&sub(0, 12), &[]), &cs, &cfg(0), None);
        assert_eq!(out.active(3), p(&[6, 7, 8]));
        assert_eq!(out.active(4), p(&[9, 10, 11]));
    }

    #[test]
    fn should_assign_standby_task_to_client_with_previous_warmup_task_over_less_loaded_client() {
        let cs = [
            client(1, 1).active(&[t(0, 0)]),
            client(2, 1).active(&[t(0, 1)]),
            client(3, 1).active(&[t(0, 2)]).standby(&[t(0, 1)]),
            client(4, 1),
        ];
        let out = run(Which::StreamsGroup, tasks(&sub(0, 3), &[]), &cs, &cfg(1), None);
        assert_eq!(out.active(3), vec![t(0, 2)]);
        assert_eq!(out.standby(3), vec![t(0, 1)]);
        assert!(!out.standby(4).contains(&t(0, 1)));
    }

    /// The offsets 100 and 10 of the upstream case, as lags from the harness's end
    /// offset of 1,000,000.
    #[test]
    fn should_prefer_more_caught_up_candidate_regardless_of_prev_standby_or_prev_warmup_role() {
        let end = 1_000_000i64;
        let cs = [
            client(1, 1).active(&[t(0, 0)]),
            client(2, 1).active(&[t(0, 1)]),
            client(3, 1).standby(&[t(0, 0)]).lag(&[t(0, 0)], end - 100),
            client(4, 1).standby(&[t(0, 0)]).lag(&[t(0, 0)], end - 10),
            client(5, 1).standby(&[t(0, 1)]).lag(&[t(0, 1)], end - 10),
            client(6, 1).standby(&[t(0, 1)]).lag(&[t(0, 1)], end - 100),
        ];
        let out = run(Which::StreamsGroup, tasks(&sub(0, 2), &[]), &cs, &cfg(1), None);
        assert_eq!(out.standby(3), vec![t(0, 0)]);
        assert!(!out.standby(4).contains(&t(0, 0)));
        assert_eq!(out.standby(6), vec![t(0, 1)]);
        assert!(!out.standby(5).contains(&t(0, 1)));
    }

    #[test]
    fn should_not_assign_standby_tasks_to_client_with_previous_standby_tasks_and_current_active_tasks() {
        let cs = [client(1, 1).standby(&[t(0, 0)]), client(2, 1).standby(&[t(0, 1)])];
        let out = run(Which::StreamsGroup, tasks(&sub(0, 2), &[]), &cs, &cfg(1), None);
        assert_eq!(out.active(1), vec![t(0, 0)]);
        assert_eq!(out.standby(1), vec![t(0, 1)]);
        assert_eq!(out.active(2), vec![t(0, 1)]);
        assert_eq!(out.standby(2), vec![t(0, 0)]);
    }

    /// Derived by reading `StickyTaskAssignor.initialize`: with 5 stateful tasks,
    /// 1 standby and 3 members the quotas are ceil(5/3) = 2 stateful actives,
    /// 2 actives and ceil(10/3) = 4 tasks per member, and the event says so.
    #[test]
    fn quotas_are_rounded_up_per_member() {
        let cs: Vec<_> = (1..=3).map(|n| client(n, 1)).collect();
        let out = run(Which::StreamsGroup, tasks(&sub(0, 5), &[]), &cs, &cfg(1), None);
        let q = out
            .log
            .iter()
            .find_map(|e| match e {
                lbscope::engine::kstreams::Event::MemberQuotas {
                    stateful_active_per_member,
                    active_per_member,
                    tasks_per_member,
                    ..
                } => Some((*stateful_active_per_member, *active_per_member, *tasks_per_member)),
                _ => None,
            })
            .unwrap();
        assert_eq!(q, (2, 2, 4));
        out.assert_valid();
    }
}

/// Runs `StandbyAssignor::from_factory(ctx, with_rack_aware_assignor)` on clients
/// whose actives are already placed, as the standby assignor tests do.
fn standbys(
    clients: &[assign::Client],
    stateful: &[lbscope::engine::kstreams::TaskId],
    cfg: &Config,
    with_rack: bool,
) -> (assign::Out, String) {
    use lbscope::engine::kstreams::standby::StandbyAssignor;
    let mut name = String::new();
    let out = assign::run_with(tasks(stateful, &[]), clients, cfg, None, |ctx| {
        let sa = StandbyAssignor::from_factory(ctx, with_rack);
        name = sa.class_name().to_string();
        // The tasks in the order given (the order the upstream test's set iterates).
        let st: Vec<usize> = stateful
            .iter()
            .map(|x| ctx.tasks.iter().position(|m| m.id == *x).unwrap())
            .collect();
        sa.assign(ctx, &st);
        false
    });
    (out, name)
}

fn tag_cfg(standbys: u32, tags: &[&str]) -> Config {
    Config {
        num_standby_replicas: standbys,
        rack_aware_assignment_tags: tags.iter().map(|s| s.to_string()).collect(),
        ..Config::default()
    }
}

/// `streams/.../internals/assignment/ClientTagAwareStandbyTaskAssignorTest`.
mod client_tag_aware_standby_task_assignor_test {
    use super::*;
    use lbscope::engine::kstreams::standby::StandbyAssignor;

    fn zc(
        n: u64,
        zone: &str,
        cluster: &str,
        actives: &[lbscope::engine::kstreams::TaskId],
    ) -> assign::Client {
        client(n, 2)
            .tags(&[("zone", zone), ("cluster", cluster)])
            .assigned_active(actives)
    }

    #[test]
    fn should_distribute_standby_tasks_when_active_tasks_are_located_on_same_zone() {
        let cs = [
            zc(1, "zone1", "cluster1", &[t(0, 0), t(1, 0)]),
            zc(2, "zone2", "cluster1", &[]),
            zc(3, "zone3", "cluster1", &[]),
            zc(4, "zone1", "cluster2", &[t(0, 1), t(1, 1)]),
            zc(5, "zone2", "cluster2", &[]),
            zc(6, "zone3", "cluster2", &[]),
            zc(7, "zone1", "cluster3", &[t(0, 2), t(1, 2)]),
            zc(8, "zone2", "cluster3", &[]),
            zc(9, "zone3", "cluster3", &[]),
        ];
        // The test hands the assignor a `HashSet<TaskId>`: with `TaskId.hashCode` =
        // `Objects.hash(subtopology, partition, null)` and 16 buckets it iterates
        // 1_0, 0_2, 0_1, 1_2, 0_0, 1_1 (the high-availability assignor itself passes a
        // `TreeSet`, task order, as lbscope does).
        let st = [t(1, 0), t(0, 2), t(0, 1), t(1, 2), t(0, 0), t(1, 1)];
        let (out, name) = standbys(&cs, &st, &tag_cfg(2, &["zone", "cluster"]), false);
        assert_eq!(name, "ClientTagAwareStandbyTaskAssignor");
        for n in [1, 4, 7] {
            assert!(out.standby(n).is_empty());
        }
        for n in [2, 3, 5, 6, 8, 9] {
            assert_eq!(out.standby(n).len(), 2, "PID_{n}");
        }
        let holders = |x| -> std::collections::BTreeSet<u64> {
            (1..=9).filter(|&n| out.standby(n).contains(&x)).collect()
        };
        let one_of = |x, a: [u64; 2], b: [u64; 2]| {
            let h = holders(x);
            assert!(
                h == a.into_iter().collect() || h == b.into_iter().collect(),
                "{x}: {h:?}"
            );
        };
        one_of(t(0, 0), [9, 5], [6, 8]);
        one_of(t(1, 0), [9, 5], [6, 8]);
        one_of(t(0, 1), [2, 9], [3, 8]);
        one_of(t(1, 1), [2, 9], [3, 8]);
        one_of(t(0, 2), [5, 3], [2, 6]);
        one_of(t(1, 2), [5, 3], [2, 6]);
    }

    #[test]
    fn should_permit_task_movement_when_client_tags_match() {
        let cs = [
            client(1, 1).tags(&[("zone", "zone1"), ("cluster", "cluster1")]),
            client(2, 2).tags(&[("zone", "zone1"), ("cluster", "cluster1")]),
        ];
        assign::run_with(
            tasks(&[], &[]),
            &cs,
            &tag_cfg(1, &["zone", "cluster"]),
            None,
            |ctx| {
                assert!(StandbyAssignor::from_factory(ctx, false).allowed_move(0, 1));
                false
            },
        );
    }

    #[test]
    fn should_decline_task_movement_when_client_tags_do_not_match() {
        let cs = [
            client(1, 1).tags(&[("zone", "zone1"), ("cluster", "cluster1")]),
            client(2, 1).tags(&[("zone", "zone2"), ("cluster", "cluster1")]),
        ];
        assign::run_with(
            tasks(&[], &[]),
            &cs,
            &tag_cfg(1, &["zone", "cluster"]),
            None,
            |ctx| {
                assert!(!StandbyAssignor::from_factory(ctx, false).allowed_move(0, 1));
                false
            },
        );
    }

    #[test]
    fn should_not_assign_standby_tasks_if_there_are_no_enough_clients() {
        let cs = [client(1, 3)
            .tags(&[("cluster", "cluster1"), ("zone", "zone1")])
            .assigned_active(&[t(0, 0)])];
        let (out, _) = standbys(&cs, &[t(0, 0)], &tag_cfg(1, &["cluster", "zone"]), false);
        assert!(out.standby(1).is_empty());
    }

    #[test]
    fn should_distribute_standby_tasks_on_least_loaded_clients_when_clients_are_not_on_different_tag_dimensions(
    ) {
        let tags = [("cluster", "cluster1"), ("zone", "zone1")];
        let cs = [
            client(1, 3).tags(&tags).assigned_active(&[t(0, 0)]),
            client(2, 3).tags(&tags).assigned_active(&[t(0, 1)]),
            client(3, 3).tags(&tags).assigned_active(&[t(0, 2)]),
            client(4, 3).tags(&tags).assigned_active(&[t(1, 0)]),
        ];
        let (out, _) = standbys(
            &cs,
            &[t(0, 0), t(0, 1), t(0, 2), t(1, 0)],
            &tag_cfg(1, &["cluster", "zone"]),
            false,
        );
        for n in 1..=4 {
            assert_eq!(out.standby(n).len(), 1, "PID_{n}");
        }
    }
}

/// `streams/.../internals/assignment/StandbyTaskAssignorFactoryTest`.
mod standby_task_assignor_factory_test {
    use super::*;

    #[test]
    fn should_return_client_tag_aware_standby_task_assignor_when_rack_aware_assignment_tags_is_set() {
        let cs = [client(1, 1).tags(&[("az", "1")]).rack("r1")];
        for with_rack in [false, true] {
            let (_, name) = standbys(&cs, &[], &tag_cfg(1, &["az"]), with_rack);
            assert_eq!(name, "ClientTagAwareStandbyTaskAssignor");
        }
    }

    /// ENABLED (a rack-aware assignor with valid client racks) → tag-aware over
    /// `rack`; DISABLED (client racks invalid) and NULL (no rack-aware assignor, as
    /// `HighAvailabilityTaskAssignor` calls it) → default.
    #[test]
    fn should_return_default_or_rack_aware_standby_task_assignor_when_rack_aware_assignment_tags_is_empty() {
        let racked = [client(1, 1).rack("r1"), client(2, 1).rack("r2")];
        assert_eq!(
            standbys(&racked, &[], &tag_cfg(1, &[]), true).1,
            "ClientTagAwareStandbyTaskAssignor"
        );
        let missing = [client(1, 1).rack("r1"), client(2, 1)];
        assert_eq!(
            standbys(&missing, &[], &tag_cfg(1, &[]), true).1,
            "DefaultStandbyTaskAssignor"
        );
        assert_eq!(
            standbys(&racked, &[], &tag_cfg(1, &[]), false).1,
            "DefaultStandbyTaskAssignor"
        );
    }
}

/// `streams/.../internals/assignment/TaskAssignmentUtilsTest`.
mod task_assignment_utils_test {
    use super::*;
    use lbscope::engine::kstreams::assignor::sticky_task_assignor::{
        default_standby_task_assignment, optimize_active,
    };
    use lbscope::engine::kstreams::rack_aware::{RackModel, RackStrategy};

    #[test]
    fn should_assign_standby_tasks_with_client_tags() {
        let cs = [
            client(1, 2).tags(&[("az", "1")]).assigned_active(&[t(0, 0)]),
            client(2, 2).tags(&[("az", "1")]),
            client(3, 2).tags(&[("az", "2")]),
            client(4, 2).tags(&[("az", "3")]),
        ];
        let out = assign::run_with(tasks(&[t(0, 0)], &[]), &cs, &tag_cfg(2, &["az"]), None, |ctx| {
            default_standby_task_assignment(ctx);
            false
        });
        assert_eq!(out.active(1), vec![t(0, 0)]);
        assert!(out.standby(1).is_empty());
        assert!(out.standby(2).is_empty());
        assert_eq!(out.standby(3), vec![t(0, 0)]);
        assert_eq!(out.standby(4), vec![t(0, 0)]);
    }

    #[test]
    fn should_assign_standby_tasks_by_client_load() {
        let cs = [
            client(1, 5).assigned_active(&[t(0, 0), t(0, 1), t(0, 2)]),
            client(2, 5).assigned_active(&[t(0, 3), t(0, 4), t(0, 5)]),
            client(3, 5),
            client(4, 5),
            client(5, 5),
        ];
        let ts = tasks(&[t(0, 0)], &[t(0, 1), t(0, 2), t(0, 3), t(0, 4), t(0, 5)]);
        let out = assign::run_with(ts, &cs, &tag_cfg(3, &[]), None, |ctx| {
            default_standby_task_assignment(ctx);
            false
        });
        assert!(out.standby(2).is_empty());
        for n in 3..=5 {
            assert_eq!(out.standby(n), vec![t(0, 0)], "PID_{n}");
        }
    }

    /// Both strategies; the task's one partition (source and changelog at once in
    /// the upstream test) is modelled as one source partition.
    #[test]
    fn should_optimize_active_task_simple() {
        for strategy in [RackStrategy::MinTraffic, RackStrategy::BalanceSubtopology] {
            let cfg = Config {
                rack_aware_assignment_strategy: strategy,
                traffic_cost: Some(100),
                non_overlap_cost: Some(1),
                num_standby_replicas: 1,
                ..Config::default()
            };
            let rack = RackModel {
                strategy,
                racks: vec!["rack-1".into(), "rack-2".into()],
                client_rack: vec![0, 1],
                source_miss: vec![vec![1, 0], vec![0, 1]],
                changelog_miss: vec![vec![0, 0], vec![0, 0]],
                subtopology: vec![0, 0],
            };
            let cs = [
                client(1, 1).rack("rack-1").assigned_active(&[t(0, 0)]),
                client(2, 1).rack("rack-2").assigned_active(&[t(0, 1)]),
            ];
            let out = assign::run_with(tasks(&[t(0, 0), t(0, 1)], &[]), &cs, &cfg, Some(rack), |ctx| {
                optimize_active(ctx, 100, 1);
                // Repeated: nothing moves back.
                optimize_active(ctx, 100, 1);
                false
            });
            assert_eq!(out.active(1), vec![t(0, 1)], "{strategy:?}");
            assert_eq!(out.active(2), vec![t(0, 0)], "{strategy:?}");
        }
    }

    /// Both strategies; each task's one partition is its source and changelog.
    #[test]
    fn should_optimize_standby_tasks_basic() {
        use lbscope::engine::kstreams::assignor::sticky_task_assignor::optimize_standby;
        for strategy in [RackStrategy::MinTraffic, RackStrategy::BalanceSubtopology] {
            let cfg = Config {
                rack_aware_assignment_strategy: strategy,
                traffic_cost: Some(100),
                non_overlap_cost: Some(1),
                num_standby_replicas: 1,
                ..Config::default()
            };
            // Racks rack-1, rack-2, rack-3; 0_0's partition on rack-2, 0_1's on rack-3.
            let miss = vec![vec![1, 0, 1], vec![1, 1, 0]];
            let rack = RackModel {
                strategy,
                racks: vec!["rack-1".into(), "rack-2".into(), "rack-3".into()],
                client_rack: vec![0, 1, 2],
                source_miss: miss.clone(),
                changelog_miss: miss,
                subtopology: vec![0, 0],
            };
            let cs = [
                client(1, 2).rack("rack-1").assigned_active(&[t(0, 0), t(0, 1)]),
                client(2, 2).rack("rack-2").assigned_standby(&[t(0, 1)]),
                client(3, 2).rack("rack-3").assigned_standby(&[t(0, 0)]),
            ];
            let out = assign::run_with(tasks(&[t(0, 0), t(0, 1)], &[]), &cs, &cfg, Some(rack), |ctx| {
                optimize_standby(ctx, 100, 1);
                false
            });
            assert_eq!(out.active(1), vec![t(0, 0), t(0, 1)], "{strategy:?}");
            assert_eq!(out.standby(2), vec![t(0, 0)], "{strategy:?}");
            assert_eq!(out.standby(3), vec![t(0, 1)], "{strategy:?}");
        }
    }

    /// Derived by reading `TaskAssignmentUtils.canPerformRackAwareOptimization`: it
    /// checks that both costs are *configured*, so with them unset nothing moves
    /// even though `StickyTaskAssignor` passes its defaults as overrides.
    #[test]
    fn no_optimization_without_configured_costs() {
        let cfg = Config {
            rack_aware_assignment_strategy: RackStrategy::MinTraffic,
            ..Config::default()
        };
        let rack = RackModel {
            strategy: RackStrategy::MinTraffic,
            racks: vec!["rack-1".into(), "rack-2".into()],
            client_rack: vec![0, 1],
            source_miss: vec![vec![1, 0], vec![0, 1]],
            changelog_miss: vec![vec![0, 0], vec![0, 0]],
            subtopology: vec![0, 0],
        };
        let cs = [
            client(1, 1).rack("rack-1").assigned_active(&[t(0, 0)]),
            client(2, 1).rack("rack-2").assigned_active(&[t(0, 1)]),
        ];
        let out = assign::run_with(tasks(&[t(0, 0), t(0, 1)], &[]), &cs, &cfg, Some(rack), |ctx| {
            optimize_active(ctx, 1, 10);
            false
        });
        assert_eq!(out.active(1), vec![t(0, 0)]);
        assert!(out
            .log
            .iter()
            .any(|e| matches!(e, lbscope::engine::kstreams::Event::Warning { message } if message.contains("rack.aware.assignment.traffic_cost and rack.aware.assignment.non_overlap_cost"))));
    }
}

/// The high-availability assignor's failover: derived by reading
/// `HighAvailabilityTaskAssignor.assignActiveStatefulTasks` (stateful actives round
/// robin over the clients in process-id order, then `balanceTasksOverThreads`) and
/// `TaskMovement.assignActiveTaskMovements` (a task leaves its target only when the
/// target is not caught up).
mod high_availability_failover {
    use super::*;
    use lbscope::engine::kstreams::Event;

    /// Client B (not a member any more) ran 0_2 and 0_3; client 2 holds caught-up
    /// standbys of exactly those. Every member is within `acceptable.recovery.lag`,
    /// so the round-robin target stands: 0_1 leaves client 1 for client 2 and 0_2
    /// goes to client 1, although client 2 could have taken just B's tasks.
    #[test]
    fn every_client_caught_up_keeps_the_round_robin_target() {
        let st = [t(0, 0), t(0, 1), t(0, 2), t(0, 3)];
        let a = client(1, 1)
            .active(&[t(0, 0), t(0, 1)])
            .lag(&[t(0, 0), t(0, 1)], -2)
            .lag(&[t(0, 2), t(0, 3)], 50);
        let c = client(2, 1).standby(&[t(0, 2), t(0, 3)]).lag(&st, 0);
        let out = run(
            Which::HighAvailability,
            tasks(&st, &[]),
            &[a, c],
            &configs(10_000, 2, 0),
            None,
        );
        assert_eq!(out.active(1), vec![t(0, 0), t(0, 2)]);
        assert_eq!(out.active(2), vec![t(0, 1), t(0, 3)]);
        assert!(!out.probing);
        let moved: Vec<_> = out
            .log
            .iter()
            .filter_map(|e| match e {
                Event::ActiveMovementExplained {
                    task,
                    from,
                    to,
                    caught_up_count,
                    target,
                    from_caught_up,
                    restore_records,
                    ..
                } => Some((
                    *task,
                    from.clone(),
                    to.clone(),
                    *caught_up_count,
                    *target,
                    *from_caught_up,
                    *restore_records,
                )),
                _ => None,
            })
            .collect();
        assert!(moved.contains(&(t(0, 1), Some("PID_1".into()), "PID_2".into(), 2, true, true, 0)));
        assert!(moved.contains(&(t(0, 2), None, "PID_1".into(), 2, true, false, 50)));
        let text = lbscope::engine::Narrate::narrate(
            out.log
                .iter()
                .find(|e| matches!(e, Event::ActiveMovementExplained { task, .. } if *task == t(0, 1)))
                .unwrap(),
        );
        assert!(text.contains("could have kept it"), "{text}");
        assert!(out.log.iter().any(|e| matches!(
            e,
            Event::HighAvailabilityTarget {
                tasks_all_caught_up: 4,
                moved: 3,
                ..
            }
        )));
    }
}
