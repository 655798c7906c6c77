//! Reading the internally tagged enums of the scenario format (an action is
//! `{"op": "create_topic", "topic": "t"}`, a workload target `{"kind": "all"}`)
//! from a JSON value in one pass.
//!
//! serde's derived reader for `#[serde(tag = "op")]` first copies the object
//! into its own buffer type and then runs every variant's reader over that
//! copy, a second reader of every action beside the one for JSON values. Here
//! the object is read as a [`serde_json::Value`], the tag taken out, and the
//! variant named by the tag reads its fields from the rest of the object with
//! serde's derived externally tagged reader (the enum written out a second
//! time by [`tagged_enum!`], as a private `remote` copy). The format and the
//! messages stay: an unknown tag is an unknown variant (listing the known
//! ones), an unknown field is named with the fields the variant has, a missing
//! field or tag is named; a variant without fields reads its tag alone (the
//! scenario reader refuses extra fields on it with its own message).

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, Unexpected, VariantAccess, Visitor};
use serde_json::{Error, Map, Value};

/// Read `T`, an enum tagged by the field `tag`, with `variant` (the derived
/// externally tagged reader of its remote copy).
pub fn read<'de, D, T>(
    d: D,
    tag: &'static str,
    variant: fn(Tagged) -> Result<T, Error>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let v = <Value as serde::Deserialize>::deserialize(d)?;
    split(v, tag).and_then(variant).map_err(de::Error::custom)
}

/// Take the tag out of the object `v`.
fn split(v: Value, tag: &'static str) -> Result<Tagged, Error> {
    let mut fields = match v {
        Value::Object(m) => m,
        other => {
            let unexpected = match &other {
                Value::Null => Unexpected::Unit,
                Value::Bool(b) => Unexpected::Bool(*b),
                Value::Number(_) => Unexpected::Other("a number"),
                Value::String(s) => Unexpected::Str(s),
                Value::Array(_) => Unexpected::Seq,
                Value::Object(_) => Unexpected::Map,
            };
            return Err(de::Error::invalid_type(unexpected, &Expecting(tag)));
        }
    };
    let tag = fields
        .remove(tag)
        .ok_or_else(|| <Error as de::Error>::missing_field(tag))?;
    Ok(Tagged {
        tag,
        fields: Fields(fields),
    })
}

struct Expecting(&'static str);

impl de::Expected for Expecting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an object with `{}`", self.0)
    }
}

/// An object whose tag was taken out: the tag names the variant, the other
/// fields are the variant's.
pub struct Tagged {
    tag: Value,
    fields: Fields,
}

/// The fields of a variant.
pub struct Fields(Map<String, Value>);

impl<'de> Deserializer<'de> for Tagged {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de> EnumAccess<'de> for Tagged {
    type Error = Error;
    type Variant = Fields;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Fields), Error> {
        Ok((seed.deserialize(self.tag)?, self.fields))
    }
}

impl<'de> VariantAccess<'de> for Fields {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(Value::Object(self.0))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        Value::Object(self.0).deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        Value::Object(self.0).deserialize_map(visitor)
    }
}

/// An enum written in the scenario format as an object with a tag field
/// (`$tag`, e.g. `"op"`), variant names in snake case: written by serde's
/// derive, read by [`read`] (with the derived reader of a private copy of the
/// enum, `remote` for it, which refuses unknown fields). `$name` is the enum's
/// name as a string, for that copy.
macro_rules! tagged_enum {
    (
        $tag:tt, $name:tt;
        $(#[$meta:meta])*
        $vis:vis enum $ty:ident { $($body:tt)* }
    ) => {
        $(#[$meta])*
        #[derive(serde::Serialize)]
        #[serde(tag = $tag, rename_all = "snake_case")]
        $vis enum $ty { $($body)* }

        const _: () = {
            #[derive(serde::Deserialize)]
            #[serde(remote = $name, rename_all = "snake_case", deny_unknown_fields)]
            #[allow(dead_code, clippy::large_enum_variant)]
            enum Remote { $($body)* }

            impl<'de> serde::Deserialize<'de> for $ty {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    $crate::engine::tagged::read(d, $tag, Remote::deserialize)
                }
            }
        };
    };
}
pub(crate) use tagged_enum;

#[cfg(test)]
mod tests {
    use crate::engine::pulsar::workload::{Shape, Target};
    use crate::engine::pulsar::Action;
    use crate::engine::{flink, kstreams};

    fn err(json: &str) -> String {
        serde_json::from_str::<Action>(json).unwrap_err().to_string()
    }

    #[test]
    fn an_unknown_op_is_named_with_the_known_ones() {
        let e = err(r#"{"op": "create_topix", "topic": "t"}"#);
        assert!(
            e.contains("unknown variant `create_topix`, expected one of"),
            "{e}"
        );
        assert!(e.contains("`create_topic`"), "{e}");
    }

    #[test]
    fn a_missing_op_or_field_is_named() {
        assert!(err(r#"{"topic": "t"}"#).contains("missing field `op`"));
        let e = err(r#"{"op": "create_topic"}"#);
        assert!(e.contains("missing field `topic`"), "{e}");
    }

    #[test]
    fn an_unknown_field_is_named_with_the_variants_fields() {
        let e = err(r#"{"op": "create_namespace", "namespace": "t/n", "bundle": 64}"#);
        assert!(
            e.contains("unknown field `bundle`, expected `namespace` or `bundles`"),
            "{e}"
        );
        // Inside a nested struct too.
        let e = err(r#"{"op": "set_topic_traffic", "topic": "t", "traffic": {"msgRateOut": 1}}"#);
        assert!(e.contains("unknown field `msgRateOut`"), "{e}");
    }

    #[test]
    fn a_value_that_is_not_an_object_says_what_is_expected() {
        let e = err(r#""step""#);
        assert!(
            e.contains(r#"invalid type: string "step", expected an object with `op`"#),
            "{e}"
        );
        let e = err(r#"{"op": 3}"#);
        assert!(e.contains("invalid type"), "{e}");
    }

    #[test]
    fn each_form_of_variant_reads_and_writes_back_the_same() {
        let cases = [
            r#"{"op":"step"}"#,
            r#"{"op":"create_namespace","namespace":"t/n","bundles":4}"#,
            r#"{"op":"set_config","config":{"loadBalancerSheddingEnabled":false}}"#,
            r#"{"op":"add_workload","pattern":{"target":{"kind":"all"},"shape":{"kind":"jitter","percent":10.0}}}"#,
        ];
        for c in cases {
            let a: Action = serde_json::from_str(c).unwrap();
            assert_eq!(serde_json::to_string(&a).unwrap(), c);
        }
        // The older one-key form of set_config still reads.
        let a: kstreams::Action =
            serde_json::from_str(r#"{"op": "set_config", "key": "num.standby.replicas", "value": 1}"#)
                .unwrap();
        assert!(matches!(a, kstreams::Action::SetConfig(_)));
        let a: flink::Action = serde_json::from_str(r#"{"op": "schedule"}"#).unwrap();
        assert_eq!(a, flink::Action::Schedule);
        let t: Target = serde_json::from_value(serde_json::json!({"kind": "topic", "topic": "t"})).unwrap();
        assert_eq!(t, Target::Topic { topic: "t".into() });
        let e = serde_json::from_str::<Shape>(r#"{"kind": "wave", "period_minutes": 1}"#).unwrap_err();
        assert!(e.to_string().contains("missing field `amplitude_percent`"), "{e}");
    }

    #[test]
    fn a_field_less_variant_reads_its_tag_alone() {
        // Extra fields on it are refused by the scenario reader, with the reason
        // (`scenario::read::check_fieldless`), not here.
        let a: Action = serde_json::from_str(r#"{"op": "step", "rounds": 3}"#).unwrap();
        assert_eq!(a, Action::Step);
    }
}
