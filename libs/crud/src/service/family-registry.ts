import { FamilyDefinition } from './family-definition';

/**
 * The families registered in the app, by index: a reference names its target by index, and
 * its 406 message needs the target's display name.
 */
export class FamilyRegistry {
  private readonly byIndex = new Map<string, FamilyDefinition>();

  add(family: FamilyDefinition): void {
    const known = this.byIndex.get(family.index);
    if (known && known !== family) throw new Error(`Two families use the index "${family.index}"`);
    this.byIndex.set(family.index, family);
  }

  get(index: string): FamilyDefinition | undefined {
    return this.byIndex.get(index);
  }
}
