/**
 * An event documents only its `id` (checked by the library for every family); everything else
 * an event carries is additional data, kept as sent.
 */
export class EventRecord {}
