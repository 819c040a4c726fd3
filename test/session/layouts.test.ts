import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { INDEX_LAYOUT, SESSION_LAYOUT } from "../../src/session/layouts.ts";
import { formatOf, hasTables, migrateStorage, NewerStorageFormat, type ObjectStorage, recordedFormat, type StorageLayout } from "../../src/session/storage-format.ts";
import { storageOn } from "../helpers/node-sql.ts";

// Each Durable Object class's layout, on node:sqlite: an object stored at every older format (as that release left
// it) wakes up migrated, with its data, and one migration that is already current writes nothing.

const storageFor = (db: DatabaseSync) => storageOn(db) as unknown as ObjectStorage;

/** The shape of an object's tables: each table and index with its columns, as SQLite reports them. */
function shape(db: DatabaseSync): Record<string, string[]> {
  const tables = db.prepare("SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name <> 'faultline_storage_format' ORDER BY name").all() as { name: string; type: string }[];
  return Object.fromEntries(
    tables.map(({ name, type }) => [name, (db.prepare(type === "index" ? `PRAGMA index_info(${name})` : `PRAGMA table_info(${name})`).all() as { name: string }[]).map((c) => c.name)]),
  );
}

/** An object as the release of format `format` left it: the first `format` steps, marked (0: no marker at all). */
function storedAt(layout: StorageLayout, format: number): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  const storage = storageFor(db);
  for (const step of layout.migrations.slice(0, format)) step.up(storage.sql);
  if (format > 0) {
    db.exec("CREATE TABLE faultline_storage_format (version INTEGER NOT NULL)");
    db.prepare("INSERT INTO faultline_storage_format (version) VALUES (?)").run(format);
  }
  return db;
}

function current(layout: StorageLayout): Record<string, string[]> {
  const db = new DatabaseSync(":memory:");
  migrateStorage(storageFor(db), layout);
  return shape(db);
}

for (const layout of [SESSION_LAYOUT, INDEX_LAYOUT]) {
  test(`${layout.className}: its format is the number of its migrations, each named`, () => {
    assert.ok(formatOf(layout) >= 2);
    for (const step of layout.migrations) assert.ok(step.name.length > 0);
    assert.equal(new Set(layout.migrations.map((s) => s.name)).size, layout.migrations.length);
  });

  for (let format = 1; format < formatOf(layout); format++) {
    test(`${layout.className}: an object stored at format ${format} (${layout.migrations[format - 1]!.name}) wakes up with the current layout and is marked with it`, () => {
      const db = storedAt(layout, format);
      assert.equal(migrateStorage(storageFor(db), layout), format);
      assert.deepEqual(shape(db), current(layout));
      assert.equal(recordedFormat(storageFor(db).sql), formatOf(layout));
    });
  }

  test(`${layout.className}: a marked format whose later tables an earlier release already made migrates too (the steps are idempotent)`, () => {
    const db = new DatabaseSync(":memory:");
    migrateStorage(storageFor(db), layout);
    db.exec("UPDATE faultline_storage_format SET version = 1");
    migrateStorage(storageFor(db), layout);
    assert.deepEqual(shape(db), current(layout));
    assert.equal(recordedFormat(storageFor(db).sql), formatOf(layout));
  });

  test(`${layout.className}: an object already at the current format is migrated without a write`, () => {
    const db = new DatabaseSync(":memory:");
    migrateStorage(storageFor(db), layout);
    const before = (db.prepare("PRAGMA data_version").get() as { data_version: number }).data_version;
    const changes = (db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
    assert.equal(migrateStorage(storageFor(db), layout), formatOf(layout));
    assert.equal((db.prepare("SELECT total_changes() AS n").get() as { n: number }).n, changes);
    assert.equal((db.prepare("PRAGMA data_version").get() as { data_version: number }).data_version, before);
  });

  test(`${layout.className}: state marked by a newer Faultline is refused, naming the class and both formats, and left as it was`, () => {
    const db = storedAt(layout, formatOf(layout));
    db.exec(`UPDATE faultline_storage_format SET version = ${formatOf(layout) + 1}`);
    const before = shape(db);
    assert.throws(() => migrateStorage(storageFor(db), layout), (error: unknown) => {
      assert.ok(error instanceof NewerStorageFormat);
      assert.match(error.message, new RegExp(`${layout.className} storage format ${formatOf(layout) + 1}; this version reads up to ${formatOf(layout)}`));
      return true;
    });
    assert.deepEqual(shape(db), before);
  });
}

test("SessionObject: a journal row and a record stored at format 1 are kept, and the row gains the later columns empty", () => {
  const db = storedAt(SESSION_LAYOUT, 1);
  db.exec(`INSERT INTO config (k, v) VALUES ('session', '{"id":"old"}')`);
  db.exec(`INSERT INTO journal (time_ms, method, outcome, entry, slim) VALUES (1, 'tools/call', 'SUCCESS', '{"seq":1}', '{}')`);
  migrateStorage(storageFor(db), SESSION_LAYOUT);
  assert.deepEqual({ ...db.prepare("SELECT v FROM config WHERE k = 'session'").get() }, { v: '{"id":"old"}' });
  assert.deepEqual({ ...db.prepare("SELECT seq, entry, call_key, attempt FROM journal").get() }, { seq: 1, entry: '{"seq":1}', call_key: null, attempt: null });
});

test("SessionObject: state from before the marker (a journal without the checks' projection) gains it and keeps its rows", () => {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE config (k TEXT PRIMARY KEY, v TEXT NOT NULL); CREATE TABLE journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, time_ms INTEGER NOT NULL, method TEXT, outcome TEXT, entry TEXT NOT NULL)");
  db.exec(`INSERT INTO journal (time_ms, entry) VALUES (1, '{"seq":1}')`);
  assert.equal(migrateStorage(storageFor(db), SESSION_LAYOUT), 0);
  assert.deepEqual(shape(db), current(SESSION_LAYOUT));
  assert.deepEqual({ ...db.prepare("SELECT seq, entry, slim FROM journal").get() }, { seq: 1, entry: '{"seq":1}', slim: null });
});

test("an empty object has no tables of its own, so the session object leaves it unmigrated (workerd's _cf_ tables do not count)", () => {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE _cf_KV (key TEXT PRIMARY KEY, value BLOB)");
  assert.equal(hasTables(storageFor(db).sql), false);
  migrateStorage(storageFor(db), SESSION_LAYOUT);
  assert.equal(hasTables(storageFor(db).sql), true);
});
