// The test suite's own JSON Schema validator: each keyword accepts what it should and rejects
// what it should, so that "validated against openrpc.json" means something.

import assert from "node:assert/strict";
import { test } from "node:test";
import { SchemaRegistry } from "../test-support/json-schema.mjs";

const ok = (schema, value, registry = new SchemaRegistry()) =>
  assert.deepEqual(registry.validate(schema, value), [], `${JSON.stringify(value)} should match ${JSON.stringify(schema)}`);
const bad = (schema, value, pattern, registry = new SchemaRegistry()) => {
  const errors = registry.validate(schema, value);
  assert.ok(errors.length > 0, `${JSON.stringify(value)} should not match ${JSON.stringify(schema)}`);
  if (pattern) assert.match(errors.join("\n"), pattern);
};

test("type, including integer and arrays of types", () => {
  ok({ type: "integer" }, 3);
  bad({ type: "integer" }, 3.5, /expected integer/);
  ok({ type: "number" }, 3.5);
  ok({ type: ["string", "null"] }, null);
  bad({ type: ["string", "null"] }, 1);
  bad({ type: "object" }, []);
  bad({ type: "array" }, {});
  ok({ type: "boolean" }, false);
});

test("properties, required, additionalProperties, patternProperties", () => {
  const schema = {
    type: "object",
    properties: { a: { type: "string" } },
    required: ["a"],
    additionalProperties: false,
  };
  ok(schema, { a: "x" });
  bad(schema, {}, /required property "a" is missing/);
  bad(schema, { a: "x", b: 1 }, /\$\.b: property not allowed here/);
  bad(schema, { a: 1 }, /\$\.a: expected string/);
  ok({ additionalProperties: { type: "string" } }, { x: "1", y: "2" });
  bad({ additionalProperties: { type: "string" } }, { x: 1 });
  ok({ patternProperties: { "^x-": { type: "number" } }, additionalProperties: false }, { "x-a": 1 });
  bad({ patternProperties: { "^x-": { type: "number" } }, additionalProperties: false }, { y: 1 });
});

test("items, prefixItems, minItems, maxItems, uniqueItems", () => {
  ok({ items: { type: "integer" }, minItems: 1 }, [1, 2]);
  bad({ items: { type: "integer" } }, [1, "2"], /\$\[1\]: expected integer/);
  bad({ minItems: 1 }, [], /fewer than 1/);
  bad({ maxItems: 1 }, [1, 2]);
  bad({ uniqueItems: true }, [{ a: 1 }, { a: 1 }]);
  ok({ prefixItems: [{ type: "string" }], items: { type: "number" } }, ["a", 1, 2]);
  bad({ prefixItems: [{ type: "string" }], items: { type: "number" } }, ["a", "b"]);
});

test("enum, const, minimum, maximum, exclusive bounds, multipleOf", () => {
  ok({ enum: ["a", 1, null] }, null);
  bad({ enum: ["a", 1] }, "b");
  ok({ const: { a: [1] } }, { a: [1] });
  bad({ const: { a: [1] } }, { a: [2] });
  ok({ minimum: 0, maximum: 5 }, 5);
  bad({ minimum: 0, maximum: 5 }, 5.1);
  bad({ minimum: 0 }, -1);
  bad({ exclusiveMinimum: 0 }, 0);
  bad({ exclusiveMaximum: 1 }, 1);
  ok({ multipleOf: 0.5 }, 2.5);
  bad({ multipleOf: 2 }, 3);
});

test("strings: minLength, maxLength in code points, pattern, date-time", () => {
  ok({ minLength: 1, maxLength: 1 }, "🎉");
  bad({ minLength: 2 }, "🎉");
  ok({ pattern: "^ad-[0-9a-f]{6}-\\d+$" }, "ad-1cc520-1");
  bad({ pattern: "^ad-" }, "x-ad", /does not match/);
  ok({ format: "date-time" }, "2026-11-30T04:01:14Z");
  bad({ format: "date-time" }, "yesterday");
});

test("oneOf, anyOf, allOf, not, if/then/else", () => {
  const image = { type: "object", required: ["url"] };
  ok({ oneOf: [image, { type: "null" }] }, null);
  ok({ oneOf: [image, { type: "null" }] }, { url: "u" });
  bad({ oneOf: [image, { type: "null" }] }, 3, /none of oneOf/);
  bad({ oneOf: [{ type: "number" }, { type: "integer" }] }, 3, /exactly one/);
  ok({ anyOf: [{ type: "number" }, { type: "integer" }] }, 3);
  bad({ anyOf: [{ type: "string" }, { type: "boolean" }] }, 3);
  bad({ allOf: [{ type: "number" }, { minimum: 5 }] }, 3);
  bad({ not: { required: ["formatID"] } }, { formatID: "x" });
  const conditional = { if: { properties: { kind: { const: "a" } } }, then: { required: ["x"] }, else: { required: ["y"] } };
  ok(conditional, { kind: "a", x: 1 });
  bad(conditional, { kind: "a", y: 1 });
  ok(conditional, { kind: "b", y: 1 });
});

test("$ref: local pointers, OpenRPC components, other documents, boolean schemas", () => {
  const doc = {
    components: { schemas: { Image: { type: "object", required: ["url"] }, "A/B": { const: 1 } } },
    methods: [{ name: "x", result: { schema: { $ref: "#/components/schemas/Image" } } }],
  };
  const registry = new SchemaRegistry();
  assert.deepEqual(registry.validate(doc.methods[0].result.schema, { url: "u" }, { root: doc }), []);
  assert.notDeepEqual(registry.validate(doc.methods[0].result.schema, {}, { root: doc }), []);
  assert.deepEqual(registry.validate({ $ref: "#/components/schemas/A~1B" }, 1, { root: doc }), []);
  assert.match(registry.validate({ $ref: "#/components/schemas/Nope" }, 1, { root: doc }).join(), /nothing at "Nope"/);

  const other = { $id: "https://native-ads.test/schemas/x.schema.json", $defs: { N: { type: "integer" } } };
  registry.add(other, "x.schema.json");
  ok({ $ref: "x.schema.json#/$defs/N" }, 1, registry);
  bad({ $ref: "https://native-ads.test/schemas/x.schema.json#/$defs/N" }, "1", undefined, registry);
  ok(true, 1);
  bad(false, 1);
  const recursive = { $defs: { T: { type: "object", properties: { next: { oneOf: [{ $ref: "#/$defs/T" }, { type: "null" }] } } } }, $ref: "#/$defs/T" };
  ok(recursive, { next: { next: null } });
  bad(recursive, { next: { next: 3 } });
});

test("unknown keywords are recorded, not silently trusted", () => {
  const registry = new SchemaRegistry();
  registry.validate({ unevaluatedProperties: false, title: "x", "x-extension": 1 }, {});
  assert.deepEqual([...registry.unsupportedKeywords], ["unevaluatedProperties"]);
});
