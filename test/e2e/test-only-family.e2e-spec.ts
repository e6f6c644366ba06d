import { describeRecordContract } from '../contract/record-contract';
import { bearer } from '../support/test-credentials';
import { GadgetModule } from '../support/gadget-family/gadget.module';

// A family that exists only here: one schema file, one module file, and the whole contract holds.
describeRecordContract(
  {
    path: 'test/gadget',
    resourceName: 'Gadget',
    authorization: () => bearer(),
    valid: () => ({ label: 'widget', tags: ['a', 'b'] }),
    invalid: { tags: [1] },
    invalidProblems: { label: 'required', tags: 'each value must be a string' },
    change: { label: 'sprocket' },
    invalidChange: { body: { tags: 'x' }, problems: { tags: 'must be a list' } },
  },
  { imports: [GadgetModule] },
);
