import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { COUNTERPARTIES, DESCRIPTIONS, drawPayment } from './seed-content.ts';
import { cumulativeWeights, pickWeighted, type Random, seededRandom } from './seeded-random.ts';

/** Seeded payments lie in the two years before this fixed instant, so the same seed gives the same rows on any day. */
export const SEED_ANCHOR_SECONDS = Date.UTC(2026, 5, 1) / 1000;
const SEED_SPAN_SECONDS = 730 * 86_400;
/** Share of seeded rows that repeat the previous row's company and second, so the `id` tie-break is exercised. */
const SAME_SECOND_SHARE = 0.12;
/** Seeding packs (second, company) into one sortable number; this bounds the company count. */
const MAX_COMPANIES = 64;
const SEED_BATCH_ROWS = 50;
const ROW_PARAMS = 9;

/** A payment as the API returns it. */
export interface PaymentRecord {
  id: string;
  company_id: string;
  status: string;
  amount: number;
  currency: string;
  created_at: string;
  description: string | null;
  counterparty: string | null;
  reference: string | null;
}

/** A keyset position: the `created_at` (unix seconds) and sequence number of the last row of a page. */
interface KeysetPosition {
  created: number;
  seq: number;
}

/** One page request as the store runs it; exactly one of `before` and `offset` may be set. */
interface PageQuery {
  companyId: string;
  status?: string | undefined;
  /** Unix seconds; rows with `created_at >= dateFrom` are kept. */
  dateFrom?: number | undefined;
  before?: KeysetPosition | undefined;
  offset?: number | undefined;
  limit: number;
}

/** Which optional parts a page query has: each shape is one prepared statement. */
export interface QueryShape {
  status: boolean;
  dateFrom: boolean;
  before: boolean;
  offset: boolean;
}

export interface PaymentStoreOptions {
  companyIds: readonly string[];
  /** Relative share of seeded rows per company, aligned with `companyIds`. */
  weights: readonly number[];
  seedCount: number;
  seed: number;
  /** The seeded rows lie in the two years before this instant (seconds); default SEED_ANCHOR_SECONDS. */
  seedEndSeconds?: number;
}

export interface PaymentStore {
  readonly db: DatabaseSync;
  hasCompany(companyId: string): boolean;
  page(query: PageQuery): PaymentRecord[];
  /** Adds `count` payments dated `max(nowSeconds, newest row)` with ids above every existing one. */
  insertLive(count: number, nowSeconds: number): void;
  /** Settles up to `count` AWAITING payments, the last added first: each becomes COMPLETED, one in five FAILED. */
  settle(count: number): number;
  close(): void;
}

const PAYMENT_ID_PREFIX = 'pay_';
const PAYMENT_ID_PATTERN = /^pay_(\d{12})$/;

/** The public id of the row with sequence number `seq`: fixed width, so id order is sequence order. */
export function paymentId(seq: number): string {
  return `${PAYMENT_ID_PREFIX}${String(seq).padStart(12, '0')}`;
}

/** The sequence number inside a payment id, or undefined when `id` is not one. */
export function paymentSeq(id: string): number | undefined {
  const match = PAYMENT_ID_PATTERN.exec(id);
  return match ? Number(match[1]) : undefined;
}

/** `YYYY-MM-DDTHH:MM:SS` (UTC) ⇄ unix seconds. */
export function toDateTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}
export function fromDateTime(value: string): number {
  return Date.parse(`${value}Z`) / 1000;
}

const SCHEMA = `
  CREATE TABLE companies (id INTEGER PRIMARY KEY, external_id TEXT NOT NULL UNIQUE);
  CREATE TABLE descriptions (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
  CREATE TABLE counterparties (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
  -- seq is the rowid: ids are derived from it, and every index carries it as its last key column.
  CREATE TABLE payments (
    seq INTEGER PRIMARY KEY,
    company INTEGER NOT NULL REFERENCES companies (id),
    status TEXT NOT NULL,
    created INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    currency TEXT NOT NULL,
    description_id INTEGER REFERENCES descriptions (id),
    counterparty_id INTEGER REFERENCES counterparties (id),
    reference_no INTEGER
  );
`;

/**
 * The two indexes serve every filter combination in keyset order. Their implicit last column is the rowid
 * (seq), so `ORDER BY created DESC, seq DESC` walks an index backwards with no sort step.
 */
const INDEXES = `
  CREATE INDEX payments_by_company_created ON payments (company, created);
  CREATE INDEX payments_by_company_status_created ON payments (company, status, created);
`;

/** The statement for one query shape. `INDEXED BY` keeps the plan fixed whatever the data distribution. */
export function pageSql(shape: QueryShape): string {
  const index = shape.status ? 'payments_by_company_status_created' : 'payments_by_company_created';
  const where = ['p.company = :company'];
  if (shape.status) where.push('p.status = :status');
  if (shape.dateFrom) where.push('p.created >= :date_from');
  if (shape.before) where.push('(p.created, p.seq) < (:before_created, :before_seq)');
  return `SELECT printf('${PAYMENT_ID_PREFIX}%012d', p.seq) AS id, :company_id AS company_id, p.status,
      p.amount, p.currency, strftime('%Y-%m-%dT%H:%M:%S', p.created, 'unixepoch') AS created_at,
      d.text AS description, cp.name AS counterparty,
      CASE WHEN p.reference_no IS NULL THEN NULL ELSE printf('INV-%07d', p.reference_no) END AS reference
    FROM payments AS p INDEXED BY ${index}
    LEFT JOIN descriptions AS d ON d.id = p.description_id
    LEFT JOIN counterparties AS cp ON cp.id = p.counterparty_id
    WHERE ${where.join(' AND ')}
    ORDER BY p.created DESC, p.seq DESC
    LIMIT :limit${shape.offset ? ' OFFSET :offset' : ''}`;
}

export function createPaymentStore(options: PaymentStoreOptions): PaymentStore {
  const { companyIds, weights } = options;
  if (companyIds.length === 0 || companyIds.length >= MAX_COMPANIES) {
    throw new Error(`the sandbox holds 1 to ${MAX_COMPANIES - 1} companies`);
  }
  if (weights.length !== companyIds.length) throw new Error('one seed weight per company is needed');
  const companyNumbers = new Map(companyIds.map((id, index) => [id, index + 1]));
  const cumulative = cumulativeWeights(weights);

  const db = new DatabaseSync(':memory:');
  // No journal and a large sort buffer: the database lives and dies with the process, and index builds sort.
  db.exec(
    'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -262144;',
  );
  db.exec(SCHEMA);
  const insertCompany = db.prepare('INSERT INTO companies (id, external_id) VALUES (?, ?)');
  for (const [id, number] of companyNumbers) insertCompany.run(number, id);
  const insertDescription = db.prepare('INSERT INTO descriptions (id, text) VALUES (?, ?)');
  for (const [index, text] of DESCRIPTIONS.entries()) insertDescription.run(index + 1, text);
  const insertCounterparty = db.prepare('INSERT INTO counterparties (id, name) VALUES (?, ?)');
  for (const [index, name] of COUNTERPARTIES.entries()) insertCounterparty.run(index + 1, name);

  const columns = `seq, company, status, created, amount, currency, description_id, counterparty_id, reference_no`;
  const settlePayments = db.prepare(
    `UPDATE payments SET status = CASE WHEN seq % 5 = 0 THEN 'FAILED' ELSE 'COMPLETED' END
     WHERE seq IN (SELECT seq FROM payments WHERE status = 'AWAITING' ORDER BY seq DESC LIMIT ?)`,
  );
  const insertPayment = db.prepare(`INSERT INTO payments (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // Seeding binds many rows per statement: one native call per row is most of the cost of a million rows.
  const insertBatch = db.prepare(
    `INSERT INTO payments (${columns}) VALUES ${Array(SEED_BATCH_ROWS).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
  );
  const rowValues = (random: Random, seq: number, company: number, created: number) => {
    const p = drawPayment(random);
    return [
      seq,
      company,
      p.status,
      created,
      p.amount,
      p.currency,
      p.descriptionId,
      p.counterpartyId,
      p.referenceNo,
    ];
  };

  const seedRandom = seededRandom(options.seed);
  const seedStart = Math.floor(options.seedEndSeconds ?? SEED_ANCHOR_SECONDS) - SEED_SPAN_SECONDS;
  // Draw (second, company) pairs first and sort them, so that ids grow with time like a real ledger's and
  // rows are appended in rowid order; indexes are built once at the end, which is much faster than
  // maintaining them row by row.
  const keys = new Float64Array(options.seedCount);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && seedRandom() < SAME_SECOND_SHARE) {
      keys[i] = keys[i - 1] as number;
    } else {
      const company = pickWeighted(seedRandom, cumulative) + 1;
      keys[i] = Math.floor(seedRandom() * SEED_SPAN_SECONDS) * MAX_COMPANIES + company;
    }
  }
  keys.sort();
  db.exec('BEGIN');
  try {
    const batch: (string | number | null)[] = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as number;
      const company = key % MAX_COMPANIES;
      batch.push(...rowValues(seedRandom, i + 1, company, seedStart + (key - company) / MAX_COMPANIES));
      if (batch.length === SEED_BATCH_ROWS * ROW_PARAMS) {
        insertBatch.run(...batch);
        batch.length = 0;
      }
    }
    for (let at = 0; at < batch.length; at += ROW_PARAMS)
      insertPayment.run(...batch.slice(at, at + ROW_PARAMS));
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  db.exec(INDEXES);

  let lastSeq = keys.length;
  const lastKey = keys[keys.length - 1];
  let newestCreated = lastKey === undefined ? seedStart : seedStart + Math.floor(lastKey / MAX_COMPANIES);
  // A stream of its own, so live rows do not depend on how many rows were seeded.
  const liveRandom = seededRandom(options.seed ^ 0x5bd1e995);

  const statements = new Map<string, StatementSync>();
  const statementFor = (shape: QueryShape) => {
    const key = `${+shape.status}${+shape.dateFrom}${+shape.before}${+shape.offset}`;
    let statement = statements.get(key);
    if (!statement) {
      statement = db.prepare(pageSql(shape));
      statements.set(key, statement);
    }
    return statement;
  };

  return {
    db,
    hasCompany: (companyId) => companyNumbers.has(companyId),
    page(query) {
      const company = companyNumbers.get(query.companyId);
      if (company === undefined) return [];
      const shape: QueryShape = {
        status: query.status !== undefined,
        dateFrom: query.dateFrom !== undefined,
        before: query.before !== undefined,
        offset: query.offset !== undefined,
      };
      const params: Record<string, string | number> = {
        company,
        company_id: query.companyId,
        limit: query.limit,
      };
      if (query.status !== undefined) params.status = query.status;
      if (query.dateFrom !== undefined) params.date_from = query.dateFrom;
      if (query.before !== undefined) {
        params.before_created = query.before.created;
        params.before_seq = query.before.seq;
      }
      if (query.offset !== undefined) params.offset = query.offset;
      return statementFor(shape).all(params) as unknown as PaymentRecord[];
    },
    insertLive(count, nowSeconds) {
      if (!Number.isSafeInteger(count) || count < 0) throw new Error('count must be a non-negative integer');
      // Never older than the newest row, and ids above every existing one: new rows sort before every
      // existing row, so a walk that has started never meets them.
      newestCreated = Math.max(newestCreated, Math.floor(nowSeconds));
      db.exec('BEGIN');
      try {
        for (let i = 0; i < count; i++) {
          lastSeq += 1;
          insertPayment.run(
            ...rowValues(liveRandom, lastSeq, pickWeighted(liveRandom, cumulative) + 1, newestCreated),
          );
        }
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    settle(count) {
      if (!Number.isSafeInteger(count) || count < 0) throw new Error('count must be a non-negative integer');
      return Number(settlePayments.run(count).changes);
    },
    close() {
      if (db.isOpen) db.close();
    },
  };
}
