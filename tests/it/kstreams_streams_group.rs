//! Streams groups (`group.protocol=streams`) as Kafka 4.4's group coordinator
//! runs them: rack-aware standbys (KAFKA-20999). Modules are named after the
//! upstream test class, tests after its methods (snake case); expected values are
//! that method's assertions unless a comment says they were derived by reading
//! the class (`StickyTaskAssignor` at apache/kafka
//! 058944c8144d5487db696959993120e620cb6aa8 and the `RackAwareStandbyPicker` with
//! `pickNext` it calls).

use crate::support::assign;

use assign::{client, run, t, tasks, Which};
use lbscope::engine::kstreams::assignor::rack_aware_standby_picker::RackAwareStandbyPicker;
use lbscope::engine::kstreams::{Config, GroupProtocol};
use std::collections::{BTreeMap, BTreeSet};

/// `group-coordinator/.../streams/assignor/RackAwareStandbyPickerTest`: processes
/// named A, B, C, … are indices 0, 1, 2, … (the test's `TreeMap` order), and its
/// by-name comparator is index order.
mod rack_aware_standby_picker_test {
    use super::*;
    use std::cmp::Ordering;

    struct Fixture {
        picker: RackAwareStandbyPicker,
        holders: BTreeSet<usize>,
    }

    fn idx(name: char) -> usize {
        (name as u8 - b'A') as usize
    }

    fn by_name(a: usize, b: usize) -> Ordering {
        a.cmp(&b)
    }

    fn picker(keys: &[&str], procs: &[&[(&str, &str)]]) -> Fixture {
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        let tags: Vec<BTreeMap<String, String>> = procs
            .iter()
            .map(|kv| kv.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
            .collect();
        let mut picker = RackAwareStandbyPicker::new(&keys, &tags);
        picker.start_task();
        Fixture {
            picker,
            holders: BTreeSet::new(),
        }
    }

    impl Fixture {
        fn hold(&mut self, p: char) {
            self.holders.insert(idx(p));
            self.picker.mark_used(idx(p));
        }

        fn pick(&mut self) -> Option<char> {
            let holders = self.holders.clone();
            self.picker
                .pick_next(|p| !holders.contains(&p), by_name)
                .map(|p| (b'A' + p as u8) as char)
        }

        fn pick_and_hold(&mut self) -> Option<char> {
            let w = self.pick();
            if let Some(w) = w {
                self.hold(w);
            }
            w
        }
    }

    #[test]
    fn should_pick_process_diverse_in_highest_priority_key_first() {
        let mut f = picker(
            &["cluster", "zone"],
            &[
                &[("cluster", "c1"), ("zone", "z1")],
                &[("cluster", "c2"), ("zone", "z1")],
                &[("cluster", "c1"), ("zone", "z2")],
            ],
        );
        f.hold('A');
        assert_eq!(f.pick(), Some('B'));
    }

    #[test]
    fn should_prefer_process_with_new_values_on_more_lower_priority_keys() {
        let mut f = picker(
            &["cluster", "zone"],
            &[
                &[("cluster", "c1"), ("zone", "z1")],
                &[("cluster", "c2"), ("zone", "z1")],
                &[("cluster", "c2"), ("zone", "z2")],
                &[("cluster", "c1"), ("zone", "z2")],
                &[("cluster", "c3"), ("zone", "z1")],
            ],
        );
        f.hold('A');
        assert_eq!(f.pick_and_hold(), Some('C'));
        assert_eq!(f.pick_and_hold(), Some('E'));
        assert_eq!(f.pick(), None);
    }

    #[test]
    fn should_give_up_highest_priority_key_when_no_process_can_diversify_it() {
        let mut f = picker(
            &["cluster", "zone"],
            &[
                &[("cluster", "c1"), ("zone", "z1")],
                &[("cluster", "c1"), ("zone", "z2")],
                &[("cluster", "c1"), ("zone", "z1")],
            ],
        );
        f.hold('A');
        assert_eq!(f.pick_and_hold(), Some('B'));
        assert_eq!(f.pick(), None);
    }

    #[test]
    fn should_drop_process_without_key_and_ineligible_process() {
        let mut f = picker(&["zone"], &[&[("zone", "z1")], &[], &[("zone", "z2")]]);
        f.hold('A');
        let holders = f.holders.clone();
        let c = idx('C');
        assert_eq!(
            f.picker.pick_next(|p| !holders.contains(&p) && p != c, by_name),
            None
        );
        f.picker.start_task();
        f.picker.mark_used(idx('A'));
        assert_eq!(f.pick(), Some('C'));
    }

    #[test]
    fn should_break_ties_with_the_given_order() {
        let mut f = picker(
            &["zone"],
            &[&[("zone", "z1")], &[("zone", "z2")], &[("zone", "z2")]],
        );
        f.hold('A');
        let holders = f.holders.clone();
        let reversed = f
            .picker
            .pick_next(|p| !holders.contains(&p), |a, b| by_name(b, a));
        assert_eq!(reversed, Some(idx('C')));
        f.picker.start_task();
        f.picker.mark_used(idx('A'));
        assert_eq!(f.pick(), Some('B'));
    }

    #[test]
    fn should_not_place_second_standby_on_value_of_first_standby() {
        let mut f = picker(
            &["zone"],
            &[
                &[("zone", "z1")],
                &[("zone", "z2")],
                &[("zone", "z2")],
                &[("zone", "z3")],
            ],
        );
        f.hold('A');
        assert_eq!(f.pick_and_hold(), Some('B'));
        assert_eq!(f.pick_and_hold(), Some('D'));
        assert_eq!(f.pick(), None);
    }

    #[test]
    fn should_start_next_task_from_all_processes() {
        let mut f = picker(&["zone"], &[&[("zone", "z1")], &[("zone", "z2")]]);
        f.hold('A');
        assert_eq!(f.pick_and_hold(), Some('B'));
        assert_eq!(f.pick(), None);
        f.holders.clear();
        f.picker.start_task();
        f.hold('B');
        assert_eq!(f.pick(), Some('A'));
    }
}

fn cfg(standbys: u32, tags: &[&str]) -> Config {
    Config {
        group_protocol: GroupProtocol::Streams,
        streams_num_standby_replicas: Some(standbys),
        rack_aware_assignment_tags: tags.iter().map(|s| s.to_string()).collect(),
        ..Config::default()
    }
}

/// The rack-aware pass of the group coordinator's `StickyTaskAssignor`
/// (`assignRackAwareStandbys` before `assignStickyStandbys`); every expected value
/// here is derived by reading the class at the commit named above.
mod streams_group_rack_aware_standbys {
    use super::*;

    /// The previous standby holder shares the active's zone; diversity outranks
    /// stickiness, so the standby goes to the other zone (without tags it would
    /// stay on the previous holder, process 2).
    #[test]
    fn diversity_outranks_a_sticky_previous_standby() {
        let z = |n, zone| client(n, 1).tags(&[("zone", zone)]);
        let cs = [
            z(1, "z1").active(&[t(0, 0)]),
            z(2, "z1").standby(&[t(0, 0)]),
            z(3, "z2"),
        ];
        let ts = tasks(&[t(0, 0)], &[]);
        let out = run(Which::StreamsGroup, ts.clone(), &cs, &cfg(1, &["zone"]), None);
        assert_eq!(out.active(1), vec![t(0, 0)]);
        assert_eq!(out.standby(3), vec![t(0, 0)]);
        assert!(out.standby(2).is_empty());
        let blind = run(Which::StreamsGroup, ts, &cs, &cfg(1, &[]), None);
        assert_eq!(blind.standby(2), vec![t(0, 0)]);
    }

    /// Processes 2 and 3 are equally diverse; process 3 held a standby before, so
    /// it wins the tie (without that history process 2, first in order, would).
    #[test]
    fn equally_diverse_processes_tie_on_previous_holder() {
        let z = |n, zone| client(n, 1).tags(&[("zone", zone)]);
        let cs = [
            z(1, "z1").active(&[t(0, 0)]),
            z(2, "z2"),
            z(3, "z2").standby(&[t(0, 0)]),
            z(4, "z1"),
        ];
        let out = run(
            Which::StreamsGroup,
            tasks(&[t(0, 0)], &[]),
            &cs,
            &cfg(1, &["zone"]),
            None,
        );
        assert_eq!(out.standby(3), vec![t(0, 0)]);
        let fresh = [z(1, "z1").active(&[t(0, 0)]), z(2, "z2"), z(3, "z2"), z(4, "z1")];
        let out = run(
            Which::StreamsGroup,
            tasks(&[t(0, 0)], &[]),
            &fresh,
            &cfg(1, &["zone"]),
            None,
        );
        assert_eq!(out.standby(2), vec![t(0, 0)]);
    }

    /// Actives: 0_0 on process 1, 0_1 on process 2. Standbys, 0_1 first: its
    /// active is in z2, so the standby goes to process 1 (z1, the only other
    /// zone), which then holds 2 tasks, the total quota ceil(4 / 3); the quota
    /// becomes ceil(2 / 2) = 1 for the others, so for 0_0 (active in z1) process 2
    /// (z2, 1 task) has no room and process 3 takes it. Tag-blind, the
    /// least-loaded pass puts 0_1 on 3 and 0_0 on 2.
    #[test]
    fn a_process_without_room_is_passed_over() {
        let z = |n, zone| client(n, 1).tags(&[("zone", zone)]);
        let cs = [z(1, "z1"), z(2, "z2"), z(3, "z2")];
        let ts = tasks(&[t(0, 0), t(0, 1)], &[]);
        let out = run(Which::StreamsGroup, ts.clone(), &cs, &cfg(1, &["zone"]), None);
        assert_eq!(out.active(1), vec![t(0, 0)]);
        assert_eq!(out.active(2), vec![t(0, 1)]);
        assert_eq!(out.standby(1), vec![t(0, 1)]);
        assert_eq!(out.standby(3), vec![t(0, 0)]);
        let blind = run(Which::StreamsGroup, ts, &cs, &cfg(1, &[]), None);
        assert_eq!(blind.standby(3), vec![t(0, 1)]);
        assert_eq!(blind.standby(2), vec![t(0, 0)]);
    }

    /// Processes 2 and 3 (z2, two members each) both have room and are equally
    /// diverse for 0_0 (active on process 1, z1); process 2 runs the stateless
    /// 1_0 (load 1/2), process 3 nothing, so the less loaded process 3 takes the
    /// standby, where the first in order, 2, would otherwise.
    #[test]
    fn equally_diverse_processes_tie_on_load() {
        let cs = [
            client(1, 1).tags(&[("zone", "z1")]).active(&[t(0, 0)]),
            client(2, 2).tags(&[("zone", "z2")]).active(&[t(1, 0)]),
            client(3, 2).tags(&[("zone", "z2")]),
        ];
        let out = run(
            Which::StreamsGroup,
            tasks(&[t(0, 0)], &[t(1, 0)]),
            &cs,
            &cfg(1, &["zone"]),
            None,
        );
        assert_eq!(out.active(1), vec![t(0, 0)]);
        assert_eq!(out.active(2), vec![t(1, 0)]);
        assert_eq!(out.standby(3), vec![t(0, 0)]);
        assert!(out.standby(2).is_empty());
    }

    /// Every process shares the active's zone: the picker gives up and the sticky
    /// pass puts the standby back on its previous holder.
    #[test]
    fn no_diversity_left_falls_back_to_stickiness() {
        let z = |n| client(n, 1).tags(&[("zone", "z1")]);
        let cs = [z(1).active(&[t(0, 0)]), z(2), z(3).standby(&[t(0, 0)])];
        let out = run(
            Which::StreamsGroup,
            tasks(&[t(0, 0)], &[]),
            &cs,
            &cfg(1, &["zone"]),
            None,
        );
        assert_eq!(out.standby(3), vec![t(0, 0)]);
        assert!(out.standby(2).is_empty());
    }

    /// The picker test's worked example, through the assignor: with the active on
    /// A (c1, z1), two standbys go to C (new cluster and zone) and E (new cluster).
    #[test]
    fn two_standbys_follow_the_priority_of_the_tag_keys() {
        let cz = |n, c, z| client(n, 1).tags(&[("cluster", c), ("zone", z)]);
        let cs = [
            cz(1, "c1", "z1").active(&[t(0, 0)]),
            cz(2, "c2", "z1"),
            cz(3, "c2", "z2"),
            cz(4, "c1", "z2"),
            cz(5, "c3", "z1"),
        ];
        let out = run(
            Which::StreamsGroup,
            tasks(&[t(0, 0)], &[]),
            &cs,
            &cfg(2, &["cluster", "zone"]),
            None,
        );
        assert_eq!(out.active(1), vec![t(0, 0)]);
        assert_eq!(out.standby(3), vec![t(0, 0)]);
        assert_eq!(out.standby(5), vec![t(0, 0)]);
        assert!(out.standby(2).is_empty() && out.standby(4).is_empty());
        out.assert_valid();
    }

    /// A standby that lands on a previous holder's process goes back to the member
    /// (thread) that held it, not to the process's least-loaded member.
    #[test]
    fn a_previous_holder_keeps_the_standby_on_its_own_member() {
        let cs = [
            client(1, 1).tags(&[("zone", "z1")]).active(&[t(0, 0)]),
            client(2, 2).tags(&[("zone", "z2")]).standby_on(1, &[t(0, 0)]),
        ];
        let out = run(
            Which::StreamsGroup,
            tasks(&[t(0, 0)], &[]),
            &cs,
            &cfg(1, &["zone"]),
            None,
        );
        assert_eq!(out.member_standby(2, 1), vec![t(0, 0)]);
        assert!(out.member_standby(2, 0).is_empty());
    }

    /// The standby choice the log reports names the tag keys it spread over.
    #[test]
    fn the_log_names_the_tag_keys() {
        let cs = [
            client(1, 1).tags(&[("zone", "z1")]),
            client(2, 1).tags(&[("zone", "z2")]),
        ];
        let out = run(
            Which::StreamsGroup,
            tasks(&[t(0, 0)], &[]),
            &cs,
            &cfg(1, &["zone"]),
            None,
        );
        let tags = out.log.iter().find_map(|e| match e {
            lbscope::engine::kstreams::Event::StandbyAssignorChosen { tags, .. } => Some(tags.clone()),
            _ => None,
        });
        assert_eq!(tags, Some(vec!["zone".to_string()]));
        // And its sentence puts the tags before the sticky rules.
        let line = out
            .log
            .iter()
            .find(|e| matches!(e, lbscope::engine::kstreams::Event::StandbyAssignorChosen { .. }))
            .map(lbscope::engine::Narrate::narrate)
            .unwrap();
        assert!(
            line.contains("different values of [zone] first, then previous owner"),
            "{line}"
        );
    }
}

fn balanced(
    clients: &[assign::Client],
    ts: Vec<lbscope::engine::kstreams::client_state::TaskMeta>,
    standbys: u32,
) -> assign::Out {
    let cfg = Config {
        streams_assignor_name: Some("balanced".into()),
        ..cfg(standbys, &[])
    };
    assign::run_with(ts, clients, &cfg, None, |ctx| {
        lbscope::engine::kstreams::assignor::streams_group_balanced::assign(ctx)
    })
}

fn sub(s: u32, n: u32) -> Vec<lbscope::engine::kstreams::TaskId> {
    (0..n).map(|p| t(s, p)).collect()
}

/// `group-coordinator/.../streams/assignor/BalancedTaskAssignorTest` (apache/kafka
/// 520636ed9c43efecc36c4eb088a84136ecf0c3fd): `test-subtopology1` / `2` are
/// sub-topologies 0 / 1, `processN` is `client(N, members)`, `memberN_k` its
/// thread k. Where the upstream test only bounds a value (an even split, "which
/// two is a tie-break"), the exact value here is derived by reading the class.
mod balanced_task_assignor_test {
    use super::*;

    fn counts(out: &assign::Out, members: &[(u64, usize)]) -> Vec<usize> {
        members
            .iter()
            .map(|&(n, k)| out.member_active(n, k).len())
            .collect()
    }

    #[test]
    fn should_assign_active_stateful_tasks_evenly_over_processes_where_number_of_processes_integral_divisor_of_number_of_tasks(
    ) {
        let cs: Vec<_> = (1..=3).map(|n| client(n, 1)).collect();
        let out = balanced(&cs, tasks(&sub(0, 6), &[]), 0);
        assert_eq!(counts(&out, &[(1, 0), (2, 0), (3, 0)]), vec![2, 2, 2]);
        // Derived: dealt round-robin, process 1 gets partitions 0 and 3.
        assert_eq!(out.active(1), vec![t(0, 0), t(0, 3)]);
        out.assert_valid();
        assert!((1..=3).all(|n| out.standby(n).is_empty()));
    }

    #[test]
    fn should_assign_active_stateful_tasks_evenly_over_members_where_number_of_members_integral_divisor_of_number_of_tasks(
    ) {
        let cs = [client(1, 2), client(2, 1)];
        let out = balanced(&cs, tasks(&sub(0, 6), &[]), 0);
        assert_eq!(counts(&out, &[(1, 0), (1, 1), (2, 0)]), vec![2, 2, 2]);
        out.assert_valid();
    }

    #[test]
    fn should_assign_active_stateful_tasks_evenly_over_processes_where_number_of_processes_not_integral_divisor_of_number_of_tasks(
    ) {
        let cs = [client(1, 1), client(2, 1)];
        let out = balanced(&cs, tasks(&sub(0, 5), &[]), 0);
        // Upstream: an even split; derived: the first process keeps the odd one.
        assert_eq!(counts(&out, &[(1, 0), (2, 0)]), vec![3, 2]);
        out.assert_valid();
    }

    #[test]
    fn should_assign_active_stateful_tasks_evenly_over_unevenly_distributed_members() {
        let cs = [client(1, 3), client(2, 1)];
        let out = balanced(&cs, tasks(&sub(0, 8), &[]), 0);
        assert_eq!(counts(&out, &[(1, 0), (1, 1), (1, 2), (2, 0)]), vec![2, 2, 2, 2]);
        out.assert_valid();
    }

    #[test]
    fn should_assign_active_stateful_tasks_evenly_over_processes_with_more_processes_than_tasks() {
        let cs: Vec<_> = (1..=4).map(|n| client(n, 1)).collect();
        let out = balanced(&cs, tasks(&sub(0, 2), &[]), 0);
        // Upstream: two get one each; derived: the first two in process order.
        assert_eq!(counts(&out, &[(1, 0), (2, 0), (3, 0), (4, 0)]), vec![1, 1, 0, 0]);
        out.assert_valid();
    }

    #[test]
    fn should_spread_tasks_of_each_subtopology_over_processes() {
        let cs = [client(1, 1), client(2, 1)];
        let out = balanced(&cs, tasks(&[sub(0, 2), sub(1, 2)].concat(), &[]), 0);
        assert_eq!(out.active(1), vec![t(0, 0), t(1, 0)]);
        assert_eq!(out.active(2), vec![t(0, 1), t(1, 1)]);
    }

    #[test]
    fn should_not_depend_on_previous_assignment_across_processes_unlike_sticky_assignor() {
        let cs = [client(1, 1).active(&sub(0, 2)), client(2, 1).active(&sub(1, 2))];
        let ts = tasks(&[sub(0, 2), sub(1, 2)].concat(), &[]);
        let sticky = run(Which::StreamsGroup, ts.clone(), &cs, &cfg(0, &[]), None);
        assert_eq!(sticky.active(1), sub(0, 2));
        assert_eq!(sticky.active(2), sub(1, 2));
        let out = balanced(&cs, ts, 0);
        assert_eq!(out.active(1), vec![t(0, 0), t(1, 0)]);
        assert_eq!(out.active(2), vec![t(0, 1), t(1, 1)]);
    }

    #[test]
    fn should_keep_tasks_on_their_current_member_within_a_process() {
        let cs = [client(1, 2)
            .active_on(0, &[t(0, 1), t(0, 3)])
            .active_on(1, &[t(0, 0), t(0, 2)])];
        let out = balanced(&cs, tasks(&sub(0, 4), &[]), 0);
        assert_eq!(out.member_active(1, 0), vec![t(0, 1), t(0, 3)]);
        assert_eq!(out.member_active(1, 1), vec![t(0, 0), t(0, 2)]);
    }

    #[test]
    fn should_move_tasks_off_an_overloaded_member_within_a_process() {
        let cs = [client(1, 2).active_on(0, &sub(0, 4))];
        let out = balanced(&cs, tasks(&sub(0, 4), &[]), 0);
        // Upstream: two each; derived: the holder keeps the first two in task order.
        assert_eq!(out.member_active(1, 0), vec![t(0, 0), t(0, 1)]);
        assert_eq!(out.member_active(1, 1), vec![t(0, 2), t(0, 3)]);
    }

    #[test]
    fn should_give_a_joining_member_tasks_although_the_others_are_within_their_ceiling() {
        let cs = [client(1, 3)
            .active_on(0, &[t(0, 0), t(0, 1)])
            .active_on(1, &[t(0, 2), t(0, 3)])];
        let out = balanced(&cs, tasks(&sub(0, 4), &[]), 0);
        let mut c = counts(&out, &[(1, 0), (1, 1), (1, 2)]);
        assert_eq!(out.member_active(1, 2).len(), 1);
        c.sort();
        assert_eq!(c, vec![1, 1, 2]);
        let kept1 = out.member_active(1, 0);
        let kept2 = out.member_active(1, 1);
        assert!(kept1.iter().all(|x| [t(0, 0), t(0, 1)].contains(x)), "{kept1:?}");
        assert!(kept2.iter().all(|x| [t(0, 2), t(0, 3)].contains(x)), "{kept2:?}");
        assert_eq!(kept1.len() + kept2.len(), 3);
    }

    #[test]
    fn should_balance_stateful_tasks_over_members_separately_from_stateless_tasks() {
        let cs = [client(1, 2).active_on(0, &sub(0, 2))];
        let out = balanced(&cs, tasks(&sub(0, 2), &sub(1, 2)), 0);
        for k in 0..2 {
            let a = out.member_active(1, k);
            assert_eq!(a.len(), 2, "{a:?}");
            assert_eq!(a.iter().filter(|x| x.subtopology == 0).count(), 1, "{a:?}");
        }
    }

    #[test]
    fn should_keep_standby_tasks_on_their_current_member_within_a_process() {
        let cs = [
            client(1, 2)
                .active_on(0, &[t(0, 0)])
                .standby_on(0, &[t(0, 3)])
                .active_on(1, &[t(0, 2)])
                .standby_on(1, &[t(0, 1)]),
            client(2, 2)
                .active_on(0, &[t(0, 1)])
                .standby_on(0, &[t(0, 2)])
                .active_on(1, &[t(0, 3)])
                .standby_on(1, &[t(0, 0)]),
        ];
        let out = balanced(&cs, tasks(&sub(0, 4), &[]), 1);
        assert_eq!(out.member_active(1, 0), vec![t(0, 0)]);
        assert_eq!(out.member_standby(1, 0), vec![t(0, 3)]);
        assert_eq!(out.member_active(1, 1), vec![t(0, 2)]);
        assert_eq!(out.member_standby(1, 1), vec![t(0, 1)]);
        assert_eq!(out.member_active(2, 0), vec![t(0, 1)]);
        assert_eq!(out.member_standby(2, 0), vec![t(0, 2)]);
        assert_eq!(out.member_active(2, 1), vec![t(0, 3)]);
        assert_eq!(out.member_standby(2, 1), vec![t(0, 0)]);
    }

    #[test]
    fn should_keep_a_task_on_its_member_when_its_role_changes_within_a_process() {
        let cs = [
            client(1, 2)
                .active_on(0, &[t(0, 3)])
                .standby_on(0, &[t(0, 2)])
                .active_on(1, &[t(0, 1)])
                .standby_on(1, &[t(0, 0)]),
            client(2, 2),
        ];
        let out = balanced(&cs, tasks(&sub(0, 4), &[]), 1);
        assert_eq!(out.member_active(1, 0), vec![t(0, 2)]);
        assert_eq!(out.member_standby(1, 0), vec![t(0, 3)]);
        assert_eq!(out.member_active(1, 1), vec![t(0, 0)]);
        assert_eq!(out.member_standby(1, 1), vec![t(0, 1)]);
        out.assert_valid();
    }

    #[test]
    fn should_assign_standbys_for_stateful_tasks() {
        let cs: Vec<_> = (1..=3).map(|n| client(n, 1)).collect();
        let out = balanced(&cs, tasks(&sub(0, 3), &[]), 1);
        for n in 1..=3 {
            assert_eq!(out.active(n).len(), 1);
            assert_eq!(out.standby(n).len(), 1);
        }
        out.assert_valid();
    }

    #[test]
    fn should_not_assign_standbys_for_stateless_tasks() {
        let cs = [client(1, 1), client(2, 1)];
        let out = balanced(&cs, tasks(&[], &sub(0, 4)), 1);
        assert_eq!(out.active(1).len(), 2);
        assert_eq!(out.active(2).len(), 2);
        assert!(out.standby(1).is_empty() && out.standby(2).is_empty());
    }

    #[test]
    fn should_not_assign_standby_to_the_process_that_owns_the_active_task() {
        let cs = [client(1, 2), client(2, 2)];
        let out = balanced(&cs, tasks(&sub(0, 4), &[]), 1);
        assert_eq!(out.active(1).len(), 2);
        assert_eq!(out.standby(1).len(), 2);
        out.assert_valid();
    }

    #[test]
    fn should_not_assign_any_standbys_with_insufficient_capacity_and_log_the_shortfall_once() {
        let cs = [client(1, 2)];
        let out = balanced(&cs, tasks(&sub(0, 4), &[]), 1);
        assert_eq!(out.member_active(1, 0).len(), 2);
        assert_eq!(out.member_active(1, 1).len(), 2);
        assert!(out.standby(1).is_empty());
        let shortfalls: Vec<String> = out
            .log
            .iter()
            .filter_map(|e| match e {
                lbscope::engine::kstreams::Event::Warning { message } if message.contains("fewer than") => {
                    Some(message.clone())
                }
                _ => None,
            })
            .collect();
        assert_eq!(shortfalls.len(), 1, "{shortfalls:?}");
        assert!(
            shortfalls[0].starts_with(
                "4 of 4 stateful tasks got fewer than the configured 1 standby replicas (4 replicas missing in total)"
            ),
            "{}",
            shortfalls[0]
        );
    }

    #[test]
    fn should_assign_as_many_standbys_as_capacity_allows() {
        let cs = [client(1, 1), client(2, 1)];
        let out = balanced(&cs, tasks(&sub(0, 2), &[]), 2);
        assert_eq!(out.active(1).len(), 1);
        assert_eq!(out.active(2).len(), 1);
        assert_eq!(out.standby(1).len() + out.standby(2).len(), 2);
        out.assert_valid();
    }

    #[test]
    fn should_distribute_stateless_tasks_to_balance_total_task_load() {
        let cs = [client(1, 2), client(2, 1)];
        let out = balanced(&cs, tasks(&sub(0, 3), &sub(1, 3)), 0);
        assert_eq!(counts(&out, &[(1, 0), (1, 1), (2, 0)]), vec![2, 2, 2]);
        out.assert_valid();
    }

    #[test]
    fn should_place_tasks_across_processes_independently_of_warmup_tasks_and_reported_offsets() {
        let plain = balanced(&[client(1, 1), client(2, 1)], tasks(&sub(0, 4), &[]), 0);
        let hinted = [
            client(1, 1)
                .tags(&[("zone", "a")])
                .standby(&[t(0, 1), t(0, 3)])
                .lag(&[t(0, 1), t(0, 3)], 0),
            client(2, 1).tags(&[("zone", "b")]).lag(&[t(0, 0), t(0, 2)], 495),
        ];
        let with = balanced(&hinted, tasks(&sub(0, 4), &[]), 0);
        for n in 1..=2 {
            assert_eq!(plain.active(n), with.active(n));
        }
    }
}

/// `group.streams.assignors` and `streams.assignor.name` (KIP-1357).
mod streams_group_assignor_configs {
    use super::*;
    use lbscope::engine::kstreams::assignor::Assignor;

    #[test]
    fn the_first_listed_assignor_is_the_groups_default() {
        assert_eq!(cfg(0, &[]).assignor(), Assignor::StreamsGroupSticky);
        let c = Config {
            group_streams_assignors: vec!["balanced".into(), "sticky".into()],
            ..cfg(0, &[])
        };
        c.validate().unwrap();
        assert_eq!(c.assignor(), Assignor::StreamsGroupBalanced);
        let c = Config {
            group_streams_assignors: vec![
                "org.apache.kafka.coordinator.group.streams.assignor.BalancedTaskAssignor".into(),
            ],
            ..cfg(0, &[])
        };
        c.validate().unwrap();
        assert_eq!(c.assignor(), Assignor::StreamsGroupBalanced);
    }

    #[test]
    fn the_group_selects_an_assignor_by_name() {
        let c = Config {
            streams_assignor_name: Some("balanced".into()),
            ..cfg(0, &[])
        };
        c.validate().unwrap();
        assert_eq!(c.assignor(), Assignor::StreamsGroupBalanced);
        // Under the classic protocol the broker's assignors play no part.
        let classic = Config {
            group_protocol: GroupProtocol::Classic,
            ..c
        };
        assert_eq!(classic.assignor(), Assignor::HighAvailability);
    }

    #[test]
    fn an_unknown_assignor_is_refused_with_the_list() {
        let c = Config {
            group_streams_assignors: vec!["sticky".into(), "uniform".into()],
            ..cfg(0, &[])
        };
        let e = c.validate().unwrap_err().to_string();
        assert!(
            e.contains("\"uniform\"") && e.contains("sticky") && e.contains("balanced"),
            "{e}"
        );
        let c = Config {
            group_streams_assignors: vec![],
            ..cfg(0, &[])
        };
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("at least one"), "{e}");
        let c = Config {
            group_streams_assignors: vec!["sticky".into(), "sticky".into()],
            ..cfg(0, &[])
        };
        assert!(c.validate().unwrap_err().to_string().contains("twice"));
    }

    #[test]
    fn a_group_cannot_select_an_assignor_the_broker_does_not_offer() {
        let c = Config {
            group_streams_assignors: vec!["sticky".into()],
            streams_assignor_name: Some("balanced".into()),
            ..cfg(0, &[])
        };
        let e = c.validate().unwrap_err().to_string();
        assert!(
            e.contains("streams.assignor.name \"balanced\"") && e.contains(": sticky"),
            "{e}"
        );
    }

    #[test]
    fn the_settings_offer_both_keys() {
        use lbscope::engine::schema::Schema;
        let keys: Vec<&str> = Config::knobs().iter().map(|k| k.key).collect();
        assert!(keys.contains(&"group.streams.assignors"));
        assert!(keys.contains(&"streams.assignor.name"));
    }
}

/// A whole rebalance under each streams group assignor, through the simulator.
mod streams_group_runs {
    use super::*;
    use lbscope::engine::kstreams::{Action, Event, Sim, SubtopologySpec};
    use lbscope::engine::Engine;

    fn group(cfg: Config) -> (Sim, Vec<Event>) {
        let mut s = Sim::new(cfg, 3).unwrap();
        for topic in ["in", "clicks"] {
            s.apply(&Action::DefineTopic {
                topic: topic.into(),
                partitions: 2,
                racks: vec![],
                replication_factor: 1,
            })
            .unwrap();
        }
        for (name, zone) in [("a", "z1"), ("b", "z2")] {
            s.apply(&Action::AddInstance {
                name: name.into(),
                threads: Some(2),
                rack: None,
                tags: [("zone".to_string(), zone.to_string())].into_iter().collect(),
                process_id: None,
            })
            .unwrap();
        }
        let specs: Vec<SubtopologySpec> = vec![
            serde_json::from_value(serde_json::json!({"sources": ["in"], "stores": ["counts"]})).unwrap(),
            serde_json::from_value(serde_json::json!({"sources": ["clicks"]})).unwrap(),
        ];
        let evs = s
            .apply(&Action::DefineTopology {
                subtopologies: specs,
                copartition_groups: vec![],
            })
            .unwrap();
        (s, evs)
    }

    fn ran(evs: &[Event]) -> Option<lbscope::engine::kstreams::assignor::Assignor> {
        evs.iter().find_map(|e| match e {
            Event::RebalanceStarted { assignor, .. } => Some(*assignor),
            _ => None,
        })
    }

    /// Derived by reading `BalancedTaskAssignor`: the stateful 0_0 and 0_1 go
    /// one to each instance, their standbys to the other, and the stateless 1_0
    /// and 1_1 one to each; inside an instance the stateful active, the standby
    /// and a stateless active are levelled over the two threads, so one thread
    /// runs two actives while the other holds the standby. The state stays
    /// consistent (the invariants hold).
    #[test]
    fn the_balanced_assignor_runs_a_streams_group() {
        let cfg = Config {
            streams_assignor_name: Some("balanced".into()),
            ..super::cfg(1, &[])
        };
        let (s, evs) = group(cfg);
        assert_eq!(
            ran(&evs),
            Some(lbscope::engine::kstreams::assignor::Assignor::StreamsGroupBalanced)
        );
        s.invariants().unwrap();
        for name in ["a", "b"] {
            let i = s.instance(name).unwrap();
            assert_eq!(i.active_tasks().len(), 2, "{name}");
            assert_eq!(i.standby_tasks().len(), 1, "{name}");
            let per_thread: Vec<usize> = i.threads.iter().map(|t| t.active.len()).collect();
            assert_eq!(per_thread, vec![2, 0], "{name}");
        }
    }

    /// With the zone tag set the sticky assignor reports the keys it spreads
    /// standbys over, and each standby lands in the other zone.
    #[test]
    fn the_sticky_assignor_spreads_standbys_over_zones() {
        let (s, evs) = group(super::cfg(1, &["zone"]));
        assert_eq!(
            ran(&evs),
            Some(lbscope::engine::kstreams::assignor::Assignor::StreamsGroupSticky)
        );
        s.invariants().unwrap();
        let a = s.instance("a").unwrap();
        let b = s.instance("b").unwrap();
        for t in a.standby_tasks() {
            assert!(b.active_tasks().contains(&t));
        }
        assert_eq!(a.standby_tasks().len() + b.standby_tasks().len(), 2);
    }
}
