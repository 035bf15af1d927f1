import { expect } from "vitest";

export interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values: AnyValue[] };
  kvlistValue?: { values: { key: string; value: AnyValue }[] };
}
export interface OtlpLogs {
  resourceLogs: {
    resource: { attributes: { key: string; value: AnyValue }[] };
    scopeLogs: {
      scope: { name: string; version?: string };
      logRecords: {
        timeUnixNano: string;
        observedTimeUnixNano: string;
        severityNumber: number;
        severityText: string;
        body: AnyValue;
        attributes: { key: string; value: AnyValue }[];
      }[];
    }[];
  }[];
}

/**
 * The OTLP/JSON encoding (opentelemetry-proto's JSON mapping): lowerCamelCase field names, 64-bit
 * integers (times) as decimal strings, enums as numbers, an AnyValue with exactly one of its fields.
 */
export function expectOtlpLogsJson(value: unknown): void {
  const body = value as OtlpLogs;
  expect(Array.isArray(body.resourceLogs)).toBe(true);
  for (const resourceLogs of body.resourceLogs) {
    for (const attribute of resourceLogs.resource.attributes) expectAnyValue(attribute.value);
    for (const scopeLogs of resourceLogs.scopeLogs) {
      expect(typeof scopeLogs.scope.name).toBe("string");
      for (const record of scopeLogs.logRecords) {
        expect(record.timeUnixNano).toMatch(/^\d+$/);
        expect(record.observedTimeUnixNano).toMatch(/^\d+$/);
        expect(Number.isInteger(record.severityNumber)).toBe(true);
        expectAnyValue(record.body);
        for (const attribute of record.attributes) expectAnyValue(attribute.value);
        expect(Object.keys(record).every((key) => /^[a-z][A-Za-z]*$/.test(key))).toBe(true);
      }
    }
  }
}

function expectAnyValue(value: AnyValue): void {
  const set = Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined);
  expect(set).toHaveLength(1);
  expect(["stringValue", "intValue", "doubleValue", "boolValue", "arrayValue", "kvlistValue", "bytesValue"]).toContain(set[0]);
  if (value.arrayValue) for (const item of value.arrayValue.values ?? []) expectAnyValue(item);
  if (value.kvlistValue) for (const kv of value.kvlistValue.values ?? []) expectAnyValue(kv.value);
}
