/** Where Basic users live; the app implements it on its database. */
export abstract class CredentialStore {
  /** The stored password hash of a user, or undefined when there is no such user. */
  abstract passwordHash(username: string): Promise<string | undefined>;
}
