/** The sentences of docs/responses.md, for a family whose display name is e.g. "Network link type". */
export class ResourceMessages {
  constructor(private readonly resourceName: string) {}

  created(id: string): string {
    return `${this.resourceName} with id=${id} correctly created`;
  }

  updated(id: string): string {
    return `${this.resourceName} with id=${id} correctly updated`;
  }

  notModified(id: string): string {
    return `Update for ${lowerFirst(this.resourceName)} with id=${id} not necessary`;
  }

  deleted(id: string): string {
    return `${this.resourceName} with id=${id} correctly deleted`;
  }

  notFound(id: string | undefined): string {
    return id === undefined ? `No ${lowerFirst(this.resourceName)} matches the request` : `${this.resourceName} with id=${id} not found`;
  }
}

export const ID_ALREADY_FOUND = 'Id already found';
export const ID_NOT_FOUND = 'Id not found';

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
