//! `pulsar-admin ns-isolation-policy set` / `delete`: namespaces, primary and
//! secondary broker regexes, the `min_available` auto-failover policy and the
//! unload scope. The engine compiles the regexes and refuses what Pulsar refuses.

use crate::engine::pulsar::isolation::{AutoFailoverPolicy, UnloadScope};
use crate::engine::pulsar::{self, Action};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{chosen, list, refuse, send, whole, SelectField, TextField};
use crate::ui::store::StoreCtx;
use yew::prelude::*;

const FIELD: Field = Field::PulsarIsolation;

fn scope_of(s: &str) -> Option<UnloadScope> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

/// The isolation-policy form and the policies in force.
#[component]
pub fn IsolationPolicyForm() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let name = use_state(|| "policy-1".to_string());
    let namespaces = use_state(|| "my-tenant/.*".to_string());
    let primary = use_state(|| "broker-1".to_string());
    let secondary = use_state(String::new);
    let min_limit = use_state(|| "1".to_string());
    let usage = use_state(|| "80".to_string());
    let scope = use_state(String::new);
    let scopes: Vec<(String, String)> = vec![
        (String::new(), "changed (default)".into()),
        ("all_matching".into(), "all_matching".into()),
        ("changed".into(), "changed".into()),
        ("none".into(), "none".into()),
    ];

    let policies: Vec<(String, String)> = store
        .session::<pulsar::Sim>()
        .state()
        .isolation_policies()
        .policies()
        .iter()
        .map(|(n, p)| {
            let join = |v: &[pulsar::isolation::Pattern]| {
                v.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(", ")
            };
            let AutoFailoverPolicy::MinAvailable {
                min_limit,
                usage_threshold,
            } = p.auto_failover_policy;
            (
                n.clone(),
                format!(
                    "namespaces [{}] · primary [{}] · secondary [{}] · min_limit={min_limit}, usage_threshold={usage_threshold}",
                    join(&p.namespaces),
                    join(&p.primary),
                    join(&p.secondary)
                ),
            )
        })
        .collect();

    let on_set = {
        let store = store.clone();
        let (name, namespaces, primary, secondary, min_limit, usage, scope) = (
            name.clone(),
            namespaces.clone(),
            primary.clone(),
            secondary.clone(),
            min_limit.clone(),
            usage.clone(),
            scope.clone(),
        );
        let scopes = scopes.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let numbers = whole::<u32>("min_limit", &min_limit)
                .and_then(|m| whole::<u32>("usage_threshold", &usage).map(|u| (m, u)));
            let (min_limit, usage_threshold) = match numbers {
                Ok(n) => n,
                Err(m) => return refuse(&store, FIELD, m),
            };
            send(
                &store,
                FIELD,
                Action::NsIsolationPolicySet {
                    policy: name.trim().to_string(),
                    namespaces: list(&namespaces),
                    primary: list(&primary),
                    secondary: list(&secondary),
                    auto_failover_policy: AutoFailoverPolicy::MinAvailable {
                        min_limit,
                        usage_threshold,
                    },
                    unload_scope: scope_of(&chosen(&scope, &scopes)),
                },
            );
        })
    };
    let on_delete = |policy: String| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            send(
                &store,
                FIELD,
                Action::NsIsolationPolicyDelete {
                    policy: policy.clone(),
                },
            )
        })
    };
    let rows = policies.iter().map(|(n, text)| {
        html! {
            <li data-policy={n.clone()}>
                <code>{ n.clone() }</code>{" "}<span class="hint">{ text.clone() }</span>
                <button type="button" class="small" onclick={on_delete(n.clone())} aria-label={format!("Delete policy {n}")}>{"Delete"}</button>
            </li>
        }
    });
    html! {
        <form class="admin-form isolation-policy" data-controls="isolation-policy" onsubmit={on_set} novalidate=true>
            <h3>{"Namespace isolation policy"}</h3>
            <p class="cmd"><code>{"ns-isolation-policy set CLUSTER POLICY --namespaces … --primary … --secondary … --auto-failover-policy-type min_available"}</code></p>
            <TextField id="iso-name" label="POLICY (name)" value={name.clone()} />
            <TextField id="iso-namespaces" label="--namespaces (regexes, comma-separated)" value={namespaces} placeholder="my-tenant/.*" />
            <TextField id="iso-primary" label="--primary (broker regexes)" value={primary} placeholder="broker-[12]" />
            <TextField id="iso-secondary" label="--secondary (broker regexes, optional)" value={secondary} placeholder="broker-3" />
            <div class="row">
                <TextField id="iso-min-limit" label="min_limit" value={min_limit} kind="number" />
                <TextField id="iso-usage" label="usage_threshold (%)" value={usage} kind="number" />
            </div>
            <SelectField id="iso-scope" label="--unload-scope" value={scope} options={scopes} />
            <div class="row">
                <button type="submit" id="iso-set">{"Set policy"}</button>
                <button type="button" id="iso-delete" onclick={on_delete((*name).trim().to_string())}>{"Delete this policy"}</button>
            </div>
            <ul class="admin-list" aria-label="Isolation policies">{ for rows }</ul>
            if policies.is_empty() { <p class="hint">{"No isolation policy: every broker is shared."}</p> }
            <FieldError field={FIELD} />
        </form>
    }
}
