// A small JSON Schema validator (no npm here): the keywords that the schemas of native-ads use
// (draft 2020-12, and the draft-07 forms people still write).
//
// Assertions: type (a name or an array of names; "integer" is a number with no fraction), enum,
// const, properties, required, additionalProperties (boolean or schema), patternProperties,
// propertyNames, minProperties, maxProperties, dependentRequired, items (schema; an array of
// schemas is the draft-07 tuple form), prefixItems, additionalItems, contains, minItems,
// maxItems, uniqueItems, minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers, and the
// draft-04 booleans), multipleOf, minLength, maxLength (code points), pattern (Unicode regex),
// format "date-time" (RFC 3339), allOf, anyOf, oneOf, not, if/then/else, $ref (a JSON pointer
// into the same document, "#anchor", or another registered document by $id or file name), and
// the boolean schemas true/false.
//
// Annotations are ignored (title, description, default, examples, $comment, contentEncoding...).
// Keywords this validator does not implement are recorded in `unsupportedKeywords` so that a test
// run can say so, instead of silently passing.

const ANNOTATIONS = new Set([
  "$schema", "$id", "$comment", "$defs", "definitions", "$anchor", "$dynamicAnchor", "$vocabulary",
  "title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly",
  "contentEncoding", "contentMediaType", "contentSchema", "format", "then", "else",
]);

const IMPLEMENTED = new Set([
  "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties",
  "propertyNames", "minProperties", "maxProperties", "dependentRequired", "items", "prefixItems",
  "additionalItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
  "maxLength", "pattern", "allOf", "anyOf", "oneOf", "not", "if", "$ref",
]);

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value; // "object", "string", "number", "boolean"
}

function hasType(value, type) {
  switch (type) {
    case "null": return value === null;
    case "boolean": return typeof value === "boolean";
    case "string": return typeof value === "string";
    case "number": return typeof value === "number" && Number.isFinite(value);
    case "integer": return typeof value === "number" && Number.isInteger(value);
    case "array": return Array.isArray(value);
    case "object": return typeof value === "object" && value !== null && !Array.isArray(value);
    default: throw new Error(`unknown JSON Schema type ${JSON.stringify(type)}`);
  }
}

export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeOf(a) !== typeOf(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (typeof a === "object" && a !== null) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function pathJoin(path, key) {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function unescapePointer(token) {
  return decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
}

/** A set of schema documents that can refer to each other. */
export class SchemaRegistry {
  constructor() {
    /** name or $id → document */
    this.documents = new Map();
    /** keywords met in schemas and not implemented */
    this.unsupportedKeywords = new Set();
    this.patternCache = new Map();
  }

  /** Registers a document under its $id and the given names (e.g. its file name). */
  add(document, ...names) {
    for (const name of names) this.documents.set(name, document);
    if (document && typeof document === "object" && typeof document.$id === "string") {
      this.documents.set(document.$id, document);
      const base = document.$id.split("/").pop();
      if (base) this.documents.set(base, document);
    }
    return this;
  }

  /** Resolves a $ref relative to `root`; returns {schema, root}. */
  resolve(ref, root) {
    const hash = ref.indexOf("#");
    const docPart = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? "" : ref.slice(hash + 1);
    let doc = root;
    if (docPart !== "") {
      doc = this.documents.get(docPart) ?? this.documents.get(docPart.split("/").pop());
      if (doc === undefined) throw new Error(`$ref ${JSON.stringify(ref)}: unknown document ${JSON.stringify(docPart)}`);
    }
    if (fragment === "" ) return { schema: doc, root: doc };
    if (!fragment.startsWith("/")) {
      const found = findAnchor(doc, fragment);
      if (found === undefined) throw new Error(`$ref ${JSON.stringify(ref)}: no anchor ${JSON.stringify(fragment)}`);
      return { schema: found, root: doc };
    }
    let node = doc;
    for (const raw of fragment.slice(1).split("/")) {
      const token = unescapePointer(raw);
      if (node === null || typeof node !== "object" || !(token in node)) {
        throw new Error(`$ref ${JSON.stringify(ref)}: nothing at ${JSON.stringify(token)}`);
      }
      node = node[token];
    }
    return { schema: node, root: doc };
  }

  regex(pattern) {
    let re = this.patternCache.get(pattern);
    if (!re) {
      re = new RegExp(pattern, "u");
      this.patternCache.set(pattern, re);
    }
    return re;
  }

  /**
   * Validates `instance` against `schema` (whose "#..." refs resolve in `root`, by default the
   * schema itself). Returns a list of error strings, empty when valid.
   */
  validate(schema, instance, { root = schema, path = "$" } = {}) {
    const errors = [];
    this.check(schema, instance, root, path, errors, 0);
    return errors;
  }

  check(schema, value, root, path, errors, depth) {
    if (depth > 200) {
      errors.push(`${path}: schema recursion deeper than 200 levels`);
      return;
    }
    if (schema === true || schema === undefined) return;
    if (schema === false) {
      errors.push(`${path}: no value is allowed here`);
      return;
    }
    if (typeof schema !== "object" || schema === null) {
      errors.push(`${path}: invalid schema ${JSON.stringify(schema)}`);
      return;
    }
    for (const key of Object.keys(schema)) {
      if (!IMPLEMENTED.has(key) && !ANNOTATIONS.has(key) && !key.startsWith("x-")) this.unsupportedKeywords.add(key);
    }

    if (schema.$ref !== undefined) {
      let target;
      try {
        target = this.resolve(schema.$ref, root);
      } catch (e) {
        errors.push(`${path}: ${e.message}`);
        return;
      }
      this.check(target.schema, value, target.root, path, errors, depth + 1);
    }

    if (schema.format === "date-time" && typeof value === "string" && !RFC3339.test(value)) {
      errors.push(`${path}: ${JSON.stringify(value)} is not an RFC 3339 date-time`);
    }

    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.some((t) => hasType(value, t))) {
        errors.push(`${path}: expected ${types.join(" or ")}, got ${typeOf(value)} ${short(value)}`);
        return; // the other keywords would only repeat the problem
      }
    }
    if (schema.enum !== undefined && !schema.enum.some((e) => deepEqual(e, value))) {
      errors.push(`${path}: ${short(value)} is not one of ${JSON.stringify(schema.enum)}`);
    }
    if (schema.const !== undefined && !deepEqual(schema.const, value)) {
      errors.push(`${path}: expected ${JSON.stringify(schema.const)}, got ${short(value)}`);
    }

    if (typeof value === "number") {
      if (typeof schema.minimum === "number") {
        const excl = schema.exclusiveMinimum === true;
        if (excl ? !(value > schema.minimum) : value < schema.minimum) {
          errors.push(`${path}: ${value} is less than ${excl ? "or equal to " : ""}the minimum ${schema.minimum}`);
        }
      }
      if (typeof schema.maximum === "number") {
        const excl = schema.exclusiveMaximum === true;
        if (excl ? !(value < schema.maximum) : value > schema.maximum) {
          errors.push(`${path}: ${value} is more than ${excl ? "or equal to " : ""}the maximum ${schema.maximum}`);
        }
      }
      if (typeof schema.exclusiveMinimum === "number" && !(value > schema.exclusiveMinimum)) {
        errors.push(`${path}: ${value} must be greater than ${schema.exclusiveMinimum}`);
      }
      if (typeof schema.exclusiveMaximum === "number" && !(value < schema.exclusiveMaximum)) {
        errors.push(`${path}: ${value} must be less than ${schema.exclusiveMaximum}`);
      }
      if (typeof schema.multipleOf === "number") {
        const q = value / schema.multipleOf;
        if (Math.abs(q - Math.round(q)) > 1e-9) errors.push(`${path}: ${value} is not a multiple of ${schema.multipleOf}`);
      }
    }

    if (typeof value === "string") {
      const length = [...value].length;
      if (typeof schema.minLength === "number" && length < schema.minLength) {
        errors.push(`${path}: ${short(value)} is shorter than ${schema.minLength}`);
      }
      if (typeof schema.maxLength === "number" && length > schema.maxLength) {
        errors.push(`${path}: ${short(value)} is longer than ${schema.maxLength}`);
      }
      if (typeof schema.pattern === "string" && !this.regex(schema.pattern).test(value)) {
        errors.push(`${path}: ${short(value)} does not match /${schema.pattern}/`);
      }
    }

    if (Array.isArray(value)) {
      if (typeof schema.minItems === "number" && value.length < schema.minItems) {
        errors.push(`${path}: ${value.length} items, fewer than ${schema.minItems}`);
      }
      if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
        errors.push(`${path}: ${value.length} items, more than ${schema.maxItems}`);
      }
      if (schema.uniqueItems === true) {
        for (let i = 0; i < value.length; i++) {
          for (let j = i + 1; j < value.length; j++) {
            if (deepEqual(value[i], value[j])) errors.push(`${path}: items ${i} and ${j} are equal`);
          }
        }
      }
      let tupleLength = 0;
      const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
      if (tuple) {
        tupleLength = tuple.length;
        tuple.forEach((s, i) => {
          if (i < value.length) this.check(s, value[i], root, pathJoin(path, i), errors, depth + 1);
        });
      }
      const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
      if (rest !== undefined) {
        for (let i = tupleLength; i < value.length; i++) this.check(rest, value[i], root, pathJoin(path, i), errors, depth + 1);
      }
      if (schema.contains !== undefined) {
        const matches = value.filter((v) => this.validate(schema.contains, v, { root }).length === 0).length;
        const min = typeof schema.minContains === "number" ? schema.minContains : 1;
        if (matches < min) errors.push(`${path}: ${matches} items match "contains", fewer than ${min}`);
        if (typeof schema.maxContains === "number" && matches > schema.maxContains) {
          errors.push(`${path}: ${matches} items match "contains", more than ${schema.maxContains}`);
        }
      }
    }

    if (hasType(value, "object")) {
      const keys = Object.keys(value);
      if (Array.isArray(schema.required)) {
        for (const name of schema.required) {
          if (!Object.prototype.hasOwnProperty.call(value, name)) errors.push(`${path}: required property ${JSON.stringify(name)} is missing`);
        }
      }
      if (typeof schema.minProperties === "number" && keys.length < schema.minProperties) {
        errors.push(`${path}: ${keys.length} properties, fewer than ${schema.minProperties}`);
      }
      if (typeof schema.maxProperties === "number" && keys.length > schema.maxProperties) {
        errors.push(`${path}: ${keys.length} properties, more than ${schema.maxProperties}`);
      }
      if (schema.dependentRequired && typeof schema.dependentRequired === "object") {
        for (const [name, needs] of Object.entries(schema.dependentRequired)) {
          if (!(name in value)) continue;
          for (const n of needs) if (!(n in value)) errors.push(`${path}: ${JSON.stringify(name)} requires ${JSON.stringify(n)}`);
        }
      }
      const props = schema.properties && typeof schema.properties === "object" ? schema.properties : {};
      const patterns = schema.patternProperties && typeof schema.patternProperties === "object" ? Object.entries(schema.patternProperties) : [];
      for (const key of keys) {
        const childPath = pathJoin(path, key);
        let matched = false;
        if (Object.prototype.hasOwnProperty.call(props, key)) {
          matched = true;
          this.check(props[key], value[key], root, childPath, errors, depth + 1);
        }
        for (const [pattern, s] of patterns) {
          if (this.regex(pattern).test(key)) {
            matched = true;
            this.check(s, value[key], root, childPath, errors, depth + 1);
          }
        }
        if (!matched && schema.additionalProperties !== undefined) {
          if (schema.additionalProperties === false) errors.push(`${childPath}: property not allowed here`);
          else this.check(schema.additionalProperties, value[key], root, childPath, errors, depth + 1);
        }
        if (schema.propertyNames !== undefined) {
          this.check(schema.propertyNames, key, root, `${childPath} (name)`, errors, depth + 1);
        }
      }
    }

    if (Array.isArray(schema.allOf)) {
      schema.allOf.forEach((s) => this.check(s, value, root, path, errors, depth + 1));
    }
    if (Array.isArray(schema.anyOf)) {
      const branches = schema.anyOf.map((s) => this.sub(s, value, root, path, depth));
      if (!branches.some((b) => b.length === 0)) {
        errors.push(`${path}: matches none of anyOf (${branches.map((b, i) => `#${i}: ${b[0]}`).join("; ")})`);
      }
    }
    if (Array.isArray(schema.oneOf)) {
      const branches = schema.oneOf.map((s) => this.sub(s, value, root, path, depth));
      const ok = branches.filter((b) => b.length === 0).length;
      if (ok === 0) errors.push(`${path}: matches none of oneOf (${branches.map((b, i) => `#${i}: ${b[0]}`).join("; ")})`);
      else if (ok > 1) errors.push(`${path}: matches ${ok} branches of oneOf, exactly one expected`);
    }
    if (schema.not !== undefined && this.sub(schema.not, value, root, path, depth).length === 0) {
      errors.push(`${path}: must not match ${JSON.stringify(schema.not)}`);
    }
    if (schema.if !== undefined) {
      const holds = this.sub(schema.if, value, root, path, depth).length === 0;
      const branch = holds ? schema.then : schema.else;
      if (branch !== undefined) this.check(branch, value, root, path, errors, depth + 1);
    }
  }

  sub(schema, value, root, path, depth) {
    const errors = [];
    this.check(schema, value, root, path, errors, depth + 1);
    return errors;
  }
}

function findAnchor(node, anchor) {
  if (node === null || typeof node !== "object") return undefined;
  if (!Array.isArray(node) && (node.$anchor === anchor || node.$dynamicAnchor === anchor)) return node;
  for (const child of Object.values(node)) {
    const found = findAnchor(child, anchor);
    if (found !== undefined) return found;
  }
  return undefined;
}

function short(value) {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
