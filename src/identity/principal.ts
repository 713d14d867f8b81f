/** Who is calling: a key's principal, or an anonymous client address for keyless calls. */
export interface Principal {
  keyId: string;
  keyName: string;
  accountId: string;
  test: boolean;
}
