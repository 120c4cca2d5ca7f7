/** Line numbers for skipped entries without scanning the file once per entry. */
export class LineCounter {
  private index = 0;
  private line = 1;

  constructor(private readonly source: string) {}

  lineAt(index: number): number {
    if (index < this.index) {
      this.index = 0;
      this.line = 1;
    }
    for (let i = this.source.indexOf('\n', this.index); i !== -1 && i < index; i = this.source.indexOf('\n', i + 1)) {
      this.line += 1;
    }
    this.index = index;
    return this.line;
  }
}
