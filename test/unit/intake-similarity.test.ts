import { describe, expect, it } from 'vitest';
import { similarity } from '../../main/services/intake/relations.js';
import { minhash } from '../../worker/intake/similarity.js';

// Near-duplicate signatures for text written without spaces (Chinese, Japanese): one changed character must
// not make two otherwise equal messages unrelated, and unrelated messages must stay apart.

const sign = (text: string) => minhash(text) as number[];

describe('MinHash over unspaced scripts', () => {
  it('a one-character edit of a Chinese or Japanese message stays a near-duplicate; other text does not', () => {
    const chinese = '港口委员会审查了疏浚招标和灯塔维修预算，并要求在星期五之前把签好的合同送到档案室，以便议会批准付款。会议记录和东码头的检查报告一并附上。';
    const japanese = '港湾委員会は浚渫の入札と灯台の修理予算を審査しました。署名済みの契約書を金曜日までに記録室へ送ってください。議事録と東桟橋の点検報告書を添付します。';
    expect(similarity(sign(chinese), sign(chinese.replace('星期五', '星期四')))).toBeGreaterThanOrEqual(0.8);
    expect(similarity(sign(japanese), sign(japanese.replace('金曜日', '木曜日')))).toBeGreaterThanOrEqual(0.8);
    expect(similarity(sign(chinese), sign(japanese))).toBeLessThan(0.3);
    expect(similarity(sign(chinese), sign('渡轮时刻表已经更新，请各位乘客注意新的发船时间和票价调整。'))).toBeLessThan(0.3);
  });

  it('spaced text is cut into words as before', () => {
    const text = 'the harbour committee reviewed the dredging tender and the lighthouse repairs budget for the coming year';
    expect(similarity(sign(text), sign(`${text} again`))).toBeGreaterThanOrEqual(0.8);
    expect(similarity(sign(text), sign('minutes of the meeting are attached together with the inspection report'))).toBeLessThan(0.3);
  });
});
