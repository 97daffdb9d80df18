// What a user's stored content takes up, as the quota counts it (src/store/quota.ts).

export interface StorageStore {
  /** Bytes the owner's distinct contents and blobs hold (every version and the trash included). */
  storageUsage(ownerId: string): Promise<number>;
}
