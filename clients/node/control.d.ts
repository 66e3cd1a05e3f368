// Types of control.js: the client of synapsefake's control API (/_fake/).
// Answers are the fake's JSON objects (docs/control-api.md names their
// fields); they are typed loosely, as records, with the fields every caller
// reads.

/** A Go duration ('24h', '90m') or a number of milliseconds. */
export type Duration = string | number;

/** An object of the fake's JSON answers: a user, a node, a transaction... */
export interface FakeObject {
  _id: string;
  [field: string]: any;
}

/** A user (docs/control-api.md: "user"). */
export interface User extends FakeObject {
  refresh_token?: string;
  legal_names?: string[];
  permission?: string;
  /** Its base documents, each with its sub-documents' statuses. */
  documents?: BaseDocument[];
  /** Every permission it held, oldest first. */
  permission_history?: PermissionChange[];
}

/** A base document of a user, as the control API shows it. */
export interface BaseDocument {
  id: string;
  name: string;
  /** 'UNVERIFIED', 'RECEIVE|1000|DAILY', 'SEND|RECEIVE|1000|DAILY'... */
  permission_scope: string;
  sub_documents: SubDocument[];
}

/** A sub-document of a base document. */
export interface SubDocument {
  /** The id reviewDocument takes. */
  id: string;
  kind: 'physical' | 'social' | 'virtual';
  /** 'SSN', 'GOVT_ID'... */
  document_type: string;
  /** 'SUBMITTED|REVIEWING', 'SUBMITTED|VALID', 'SUBMITTED|INVALID'... */
  status: string;
  /** When its review completes, in ms; null when none is scheduled. */
  review_at: number | null;
}

/** A step of a user's permission history. */
export interface PermissionChange {
  /** When, in ms. */
  at: number;
  permission: string;
  /** What made it: 'created', 'documents' or 'platform'. */
  by: 'created' | 'documents' | 'platform' | string;
}

/** A sub-document addUser files under the user's base document. */
export interface DocumentSeed {
  kind: 'physical' | 'social' | 'virtual';
  /** 'SSN', 'GOVT_ID'... */
  type: string;
  value: string;
  /** 'VALID', 'REVIEWING'...; without one it goes under review as an API upload does. */
  status?: string;
}

/** A node, with its current and available balance in cents. */
export interface Node extends FakeObject {
  type?: string;
  balance_cents?: number;
  available_cents?: number;
}

/** A transaction's recent_status, as the API's GET .../trans/{trans_id} shows it. */
export interface RecentStatus {
  status: string;
  status_id: string;
  note: string;
  /** ms since the epoch */
  date: number;
  /** the return, decline, queue or cancel code, when there is one */
  code?: string;
}

/**
 * A transaction as the control API shows it: its own status and code, and
 * the API's recent_status beside them (the API's transaction has no
 * top-level status).
 */
export interface Transaction extends FakeObject {
  status?: string;
  code?: string;
  amount_cents?: number;
  from_node_id?: string;
  to_node_id?: string;
  timeline?: Array<{ status: string; date: number; [field: string]: any }>;
  recent_status?: RecentStatus;
}

/** A captured webhook. */
export interface Webhook {
  function: string;
  object_type: string;
  object_id: string;
  status: string;
  code: string;
  updated_by: string;
  date: number;
  payload: any;
  deliveries: Array<{ subscription_id: string; url: string; log_id: string; attempts: Array<{ code: number; text: string; date: number }> }>;
  [field: string]: any;
}

/** What waitWebhook matches: at least one of objectId (object_id), function and status. */
export interface WebhookMatch {
  object_id?: string;
  objectId?: string;
  function?: string;
  status?: string;
  /** At most 30 s; 5 s by default. */
  timeout?: Duration;
}

export interface ControlOptions {
  /** The server's -control-token, sent as X-Fake-Control-Token. */
  token?: string;
  /** ms each call may take; 10000 by default. */
  timeout?: number;
}

/**
 * A refusal of the control API: the error envelope's error_code and
 * http_code, error.code and error.en (the reason).
 */
export class ControlError extends Error {
  name: 'ControlError';
  /** The request's method. */
  method: string;
  /** The request's path (/_fake/...). */
  path: string;
  /** The HTTP status. */
  status: number;
  /** The envelope's error_code ('404', '200', '410'...). */
  errorCode: string | undefined;
  /** The envelope's http_code ('404'...). */
  httpCode: string | undefined;
  /** error.code: 'unable_to_locate_node', 'platform_exists'... */
  code: string | undefined;
  /** error.en: the reason, in English. */
  en: string;
  /** The reason: error.en. */
  reason: string;
  /** The whole decoded answer, null when it was not JSON. */
  envelope: Record<string, any> | null;
}

/** The control API of one synapsefake server, or of one of its platforms. */
export class Control {
  /**
   * @param baseURL the server's origin, the API's base URL (.../v3.1), or a
   *   control URL (.../_fake, or a platform's .../_fake/platforms/ID)
   */
  constructor(baseURL: string, options?: ControlOptions);
  /** The server's origin: http://127.0.0.1:PORT. */
  readonly origin: string;
  /** The control API's root path: /_fake or /_fake/platforms/ID. */
  readonly prefix: string;
  token: string | undefined;
  timeout: number;

  /** Calls any control route by its path under the control root; resolves to the decoded answer. */
  call(method: string, path: string, body?: object | string, query?: Record<string, string | number | undefined>, timeout?: number): Promise<any>;

  addUser(fields?: { email?: string; phone_numbers?: string[]; legal_names?: string[]; fingerprint?: string; supp_id?: string; is_business?: boolean; permission?: string; documents?: DocumentSeed[]; [field: string]: any }): Promise<User>;
  users(options?: { limit?: number }): Promise<User[]>;
  user(userId: string): Promise<User>;
  userNodes(userId: string): Promise<Node[]>;
  addNode(userId: string, fields?: { type?: string; nickname?: string; balance_cents?: number; account_num?: string; routing_num?: string; supp_id?: string; [field: string]: any }): Promise<Node>;
  node(nodeId: string): Promise<Node>;
  /** Money for a node at once (no transaction, no webhook); the node after. */
  fund(nodeId: string, cents: number): Promise<Node>;
  /** The newest transactions of a user or of a node (one of userId and nodeId; userID and nodeID are their first spelling). */
  transactions(options: { userId?: string; nodeId?: string; userID?: string; nodeID?: string; limit?: number }): Promise<Transaction[]>;
  addSubnet(userId: string, nodeId: string, fields?: Record<string, any>): Promise<FakeObject>;
  /** An OAuth key for the user on the fingerprint: X-SP-USER is `${key}|${fingerprint}`. */
  oauthKey(userId: string, fingerprint: string, scopes?: string[]): Promise<string>;
  /** The user's next sign-in asks for a PIN (the MFA path). */
  forceMFA(userId: string): Promise<void>;
  /** The PIN the fake sent the user. */
  mfaPin(userId: string): Promise<string>;
  setPermission(userId: string, permission: string): Promise<User>;
  /** One sub-document takes status ('VALID', 'INVALID', 'SUBMITTED|VALID'...); the user after. */
  reviewDocument(userId: string, documentId: string, status: string): Promise<User>;
  /** Every sub-document still under review takes status; the user after. */
  reviewDocuments(userId: string, status: string): Promise<User>;
  addSubscription(url: string, scopes?: string[]): Promise<FakeObject>;
  /** Loads a world file; names to ids. */
  loadWorld(world: object | string): Promise<{ users: Record<string, string>; nodes: Record<string, string>; [kind: string]: Record<string, string> }>;

  /** The fake's time, a Date (Go's Now()). */
  now(): Promise<Date>;
  /** The fake's time, in ms since the epoch. */
  nowMs(): Promise<number>;
  /** Moves the clock (and everything due) by a Go duration ('24h') or ms; the time after. */
  advance(duration: Duration): Promise<Date>;
  advanceToNextBusinessDay(): Promise<Date>;
  advanceToCutoff(cutoff: 'ach' | 'same-day' | 'wire'): Promise<Date>;

  transaction(txId: string): Promise<Transaction>;
  /** Every remaining step to SETTLED. */
  settle(txId: string): Promise<Transaction>;
  /** Returned with an ACH R.., card IR.. or wire WR.. code. */
  return(txId: string, code: string, options?: { late?: boolean }): Promise<Transaction>;
  /** return, under a name that is not a keyword. */
  returnTransaction(txId: string, code: string, options?: { late?: boolean }): Promise<Transaction>;
  scheduleReturn(txId: string, code: string, options?: { after?: Duration; late?: boolean }): Promise<Transaction>;
  queue(txId: string, code?: string): Promise<Transaction>;
  release(txId: string): Promise<Transaction>;
  cancel(txId: string, code?: string): Promise<Transaction>;
  advanceTransaction(txId: string, status: string): Promise<Transaction>;
  /** The originator dishonors a return (R61, R62, R67-R70). */
  dishonorReturn(txId: string, code: string): Promise<Transaction>;
  /** The receiving bank contests a dishonored return (R71-R77). */
  contestDishonor(txId: string, code: string): Promise<Transaction>;
  winDispute(txId: string): Promise<{ transaction: Transaction; dispute_status: string; dispute_credit_transaction_id: string }>;
  loseDispute(txId: string): Promise<{ transaction: Transaction; dispute_status: string; dispute_credit_transaction_id: string }>;

  cardAuthorization(subnetId: string, amountCents: number, options?: { merchant?: string; foreign?: boolean; cash?: boolean; decline_with?: string; hold?: boolean; [field: string]: any }): Promise<Transaction>;
  forcePost(subnetId: string, amountCents: number, options?: Record<string, any>): Promise<Transaction>;
  refundCard(subnetId: string, amountCents: number, merchant?: string): Promise<Transaction>;
  incrementAuthorization(txId: string, amountCents: number): Promise<Transaction>;
  reverseAuthorization(txId: string, amountCents?: number): Promise<Transaction>;
  clearAuthorization(txId: string, amountCents?: number): Promise<Transaction>;

  addReturnRule(rule: { node_id?: string; account_num?: string; amount_cents?: number; note?: string; code?: string; queue?: boolean; after?: Duration; late?: boolean }): Promise<object[]>;
  returnRules(): Promise<object[]>;
  clearReturnRules(): Promise<void>;

  failNext(method: string, route: string, errorCode: string, times?: number): Promise<void>;
  slowNext(method: string, route: string, delay: Duration, times?: number): Promise<void>;

  /** The captured webhooks, oldest first: all of them, or the newest limit. */
  webhooks(options?: { limit?: number }): Promise<Webhook[]>;
  /** Waits until no delivery is in flight; how many webhooks were captured. */
  flush(): Promise<number>;
  /** The first captured webhook that matches; none: a ControlError 404 no_matching_webhook saying what was captured and what is pending. */
  waitWebhook(match: WebhookMatch): Promise<Webhook>;
  resetWebhooks(): Promise<void>;
  chaos(): Promise<object>;
  setChaos(settings: object): Promise<object>;
  clearChaos(): Promise<object>;

  requests(): Promise<object[]>;
  resetRequests(): Promise<void>;
  state(): Promise<object>;
  restore(state: object | string, options?: { copy?: boolean }): Promise<void>;
  reset(): Promise<void>;
}
