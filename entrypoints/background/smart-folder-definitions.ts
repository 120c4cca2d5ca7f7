import type { SmartFolder } from '../../lib/api/smart-folders.ts';
import type { Library } from './library.ts';
import type { Account } from './account.ts';
import type * as z from 'zod/mini';
import type { CreateSmartFolderBody, PatchSmartFolderBody } from '../../lib/api/smart-folders.ts';

/** Creating, changing and deleting smart folders; the kept list (pickers, side panel) follows each change. */
export class SmartFolderDefinitions {
  constructor(
    private account: Account,
    private library: Library,
  ) {}

  async create(body: z.output<typeof CreateSmartFolderBody>): Promise<SmartFolder> {
    const folder = await (await this.account.client()).call('createSmartFolder', { body });
    await this.library.keepSmartFolder(folder.id, folder);
    return folder;
  }

  async update(id: string, patch: z.output<typeof PatchSmartFolderBody>): Promise<SmartFolder> {
    const folder = await (await this.account.client()).call('updateSmartFolder', { params: { id }, body: patch });
    await this.library.keepSmartFolder(id, folder);
    return folder;
  }

  async remove(id: string): Promise<{ success: boolean }> {
    const result = await (await this.account.client()).call('deleteSmartFolder', { params: { id } });
    await this.library.keepSmartFolder(id, null);
    return result;
  }
}
