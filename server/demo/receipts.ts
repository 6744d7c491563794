import type { ReceiptInput, ReceiptItemInput, ReceiptPaymentInput } from '../repositories/ingestion.js';
import { civil, ZoneClock } from './calendar.js';
import { CUSTOMER_NAMES, DISCOUNT_REASONS, FOC_REASONS, REFUND_REASONS, VOID_REASONS } from './catalog.js';
import { CLOSE_HOUR, hourWeights } from './patterns.js';
import { itemAt, Random, WeightedIndex } from './random.js';
import type { OutletPlan } from './world.js';

const WIDTH = 40;
const RULE = '-'.repeat(WIDTH);
/** How many receipts a demo member makes on average over the demo's months: about one a week. */
const RECEIPTS_PER_MEMBER = 60;

/**
 * How many loyalty members each mall has for `totalReceipts` demo receipts (about a third of them members'), so
 * that a member comes back about once a week whatever the volume; at least 50.
 */
export function membersPerMall(totalReceipts: number, malls: number): number {
  return Math.max(50, Math.round((totalReceipts * 0.35) / malls / RECEIPTS_PER_MEMBER));
}

interface Sku {
  id: number;
  name: string;
  unitPrice: number;
}

/** How many items a receipt has, by profile. */
const ITEM_COUNTS: Record<OutletPlan['profile'], { counts: number[]; weights: number[] }> = {
  restaurant: { counts: [1, 2, 3, 4, 5, 6], weights: [8, 22, 28, 22, 12, 8] },
  quick: { counts: [1, 2, 3, 4], weights: [40, 35, 18, 7] },
  cafe: { counts: [1, 2, 3, 4], weights: [35, 38, 19, 8] },
  dessert: { counts: [1, 2, 3], weights: [55, 35, 10] },
  retail: { counts: [1, 2, 3, 4], weights: [58, 27, 11, 4] },
  grocery: { counts: [1, 2, 3, 4, 5, 6, 8], weights: [10, 14, 18, 18, 15, 13, 12] },
};

/**
 * Makes the receipts of one outlet day by day, from the outlet's own random stream: the same seed, outlet and
 * sequence of days give the same receipts.
 */
export class OutletSimulator {
  private readonly random: Random;
  /** Who the members are: a stream of its own, so the rest of the receipts do not depend on it. */
  private readonly members: Random;
  private readonly clock: ZoneClock;
  private readonly skus: Sku[];
  private readonly skuPicker: WeightedIndex;
  private readonly weekdayHours: WeightedIndex;
  private readonly weekendHours: WeightedIndex;
  private readonly methodPicker: WeightedIndex;
  private readonly methods: string[];
  private readonly amountStep: number;
  private readonly decimals: number;
  private readonly header: string;
  private counter: number;

  constructor(
    readonly plan: OutletPlan,
    readonly outletId: number,
    skuIds: readonly number[],
    seed: number,
    /** The size of the mall's loyalty programme (membersPerMall). */
    private readonly mallMembers: number,
  ) {
    this.random = Random.derive(seed, 'receipts', plan.code);
    this.members = Random.derive(seed, 'members', plan.code);
    this.clock = ZoneClock.for(plan.mall.timeZone);
    this.skus = plan.skus.map((sku, i) => ({ id: itemAt(skuIds, i), name: sku.name, unitPrice: sku.unitPrice }));
    this.skuPicker = new WeightedIndex(plan.skus.map((sku) => sku.weight));
    this.weekdayHours = new WeightedIndex(hourWeights(plan.profile, false));
    this.weekendHours = new WeightedIndex(hourWeights(plan.profile, true));
    this.methods = plan.mall.paymentMethods.map(([method]) => method);
    this.methodPicker = new WeightedIndex(plan.mall.paymentMethods.map(([, weight]) => weight));
    this.amountStep = plan.mall.currency === 'IDR' ? 100 : 0.01;
    this.decimals = plan.mall.currency === 'IDR' ? 0 : 2;
    this.counter = this.random.int(1000, 90000);
    this.header = [center(plan.name.toUpperCase()), center(`${plan.mall.name} ${plan.unitNo}`)].join('\n');
  }

  /**
   * A member of the mall's loyalty programme (mallMembers of them): the same members come back, the most loyal
   * far more often (the square of a uniform draw favours low numbers), and they shop at many of the mall's outlets.
   */
  private memberId(): string {
    const n = Math.floor(this.mallMembers * this.members.next() ** 2);
    return `${this.plan.mall.code}-M${String(n + 1).padStart(5, '0')}`;
  }

  private money(value: number): number {
    return Math.round(Math.round(value / this.amountStep) * this.amountStep * 100) / 100;
  }

  private format(value: number): string {
    if (this.decimals === 2) return value.toFixed(2);
    const sign = value < 0 ? '-' : '';
    return (
      sign +
      Math.abs(Math.round(value))
        .toString()
        .replace(/\B(?=(\d{3})+(?!\d))/g, '.')
    );
  }

  /** Appends `count` receipts of local day `day` to `out`, in time order. */
  generateDay(day: number, count: number, out: ReceiptInput[]): void {
    if (count <= 0) return;
    const random = this.random;
    const { weekday } = civil(day);
    const hours = weekday === 0 || weekday === 6 ? this.weekendHours : this.weekdayHours;
    const seconds = new Array<number>(count);
    for (let i = 0; i < count; i++) seconds[i] = hours.pick(random) * 3600 + Math.floor(random.next() * 3600);
    seconds.sort((a, b) => a - b);
    const date = isoDate(day);
    for (const second of seconds) {
      const hour = Math.floor(second / 3600);
      const minute = Math.floor((second % 3600) / 60);
      const instant = this.clock.instant(day, hour, minute, second % 60);
      out.push(this.receipt(date, second, instant));
    }
  }

  private receipt(date: string, secondOfDay: number, instant: number): ReceiptInput {
    const random = this.random;
    const plan = this.plan;
    const fnb = plan.type === 1;
    this.counter += 1;

    // Items.
    const shape = ITEM_COUNTS[plan.profile];
    const wanted = Math.min(random.weighted(shape.counts, shape.weights), this.skus.length);
    const items: ReceiptItemInput[] = [];
    const names: string[] = [];
    const used = new Set<number>();
    let subtotal = 0;
    for (let attempt = 0; items.length < wanted && attempt < wanted * 3; attempt++) {
      const index = this.skuPicker.pick(random);
      if (used.has(index)) continue;
      used.add(index);
      const sku = itemAt(this.skus, index);
      const roll = random.next();
      const quantity = roll < 0.8 ? 1 : roll < 0.95 ? 2 : roll < 0.99 ? 3 : 4;
      const amount = this.money(sku.unitPrice * quantity);
      items.push({ skuId: sku.id, quantity, unitPrice: sku.unitPrice, amount });
      names.push(sku.name);
      subtotal += amount;
    }
    subtotal = this.money(subtotal);

    // What kind of receipt.
    const isVoid = random.chance(fnb ? 0.014 : 0.009);
    const foc = !isVoid && random.chance(fnb ? 0.01 : 0.002);
    const opened = !foc && random.chance(fnb ? 0.015 : 0.003);
    const member = random.chance(plan.memberRate);
    const discounted = !foc && random.chance(member ? 0.2 : 0.08);
    const voucher = !foc && !opened && random.chance(0.03);
    const refund = !foc && !isVoid && !opened && random.chance(fnb ? 0.004 : 0.01);

    let discount = 0;
    let nameReason: string | null = null;
    if (discounted) {
      const reason = member && random.chance(0.6) ? 'Member 10%' : random.pick(DISCOUNT_REASONS);
      const percent = reason === 'Member 10%' ? 0.1 : random.pick([0.05, 0.1, 0.15, 0.2]);
      discount = this.money(subtotal * percent);
      nameReason = reason;
    }
    if (foc) {
      for (const item of items) item.amount = 0;
    }
    const total = foc ? 0 : this.money(subtotal - discount);

    // Payments.
    let payments: ReceiptPaymentInput[];
    let voucherAmount = 0;
    if (foc) {
      payments = [{ method: 'NONE', amount: 0 }];
    } else if (opened) {
      payments = [{ method: '', amount: total }];
    } else {
      const primary = itemAt(this.methods, this.methodPicker.pick(random));
      if (voucher && total > 0) {
        const face = this.money(random.pick([5, 10, 20, 50]) * plan.mall.priceScale);
        voucherAmount = Math.min(face, total);
        const rest = this.money(total - voucherAmount);
        const card = random.pick(plan.mall.cardMethods);
        payments =
          rest > 0
            ? [
                { method: card, amount: rest },
                { method: 'VOUCHER', amount: voucherAmount },
              ]
            : [{ method: 'VOUCHER', amount: voucherAmount }];
      } else if (total > 0 && random.chance(0.05)) {
        // Split between cash or a wallet and a card.
        const first = this.money(total * random.float(0.2, 0.8));
        const other = random.pick(plan.mall.cardMethods.filter((method) => method !== primary));
        payments = [
          { method: primary, amount: first },
          { method: other ?? 'CASH', amount: this.money(total - first) },
        ];
      } else {
        payments = [{ method: primary, amount: total }];
      }
    }
    const paymentMethod = payments.reduce(
      (best, payment) => (payment.amount > best.amount ? payment : best),
      itemAt(payments, 0),
    ).method;

    const refundAmount = refund
      ? random.chance(0.4)
        ? total
        : this.money(Math.min(total, items[0]?.amount ?? total))
      : 0;
    if (isVoid) nameReason = random.pick(VOID_REASONS);
    else if (refund && refundAmount > 0) nameReason = random.pick(REFUND_REASONS);

    // Service: table, take-away, delivery.
    let tableNo: string | null = null;
    let takeAway = false;
    let deliveryInfo: string | null = null;
    let dineOut: number | null = null;
    if (fnb) {
      const roll = random.next();
      if (roll < 0.1) {
        const partner = random.pick(plan.mall.deliveryPartners);
        deliveryInfo = `${partner} #${partner.slice(0, 2).toUpperCase()}-${random.int(1000, 9999)}-${random.int(100, 999)}`;
      } else if (roll < 0.1 + (plan.profile === 'restaurant' ? 0.12 : 0.45)) {
        takeAway = true;
      } else if (plan.hasTables) {
        tableNo = `T${String(random.int(1, 40)).padStart(2, '0')}`;
        const minutes = plan.profile === 'restaurant' ? random.int(35, 110) : random.int(15, 60);
        const closing = instantAtSecond(instant, secondOfDay, CLOSE_HOUR * 3600);
        dineOut = Math.max(instant + 5 * 60_000, Math.min(instant + minutes * 60_000, closing));
        if (!nameReason && random.chance(0.06)) nameReason = `${random.pick(CUSTOMER_NAMES)} (${tableNo})`;
      }
    }

    const receiptId =
      plan.timestampIds || random.chance(0.01) ? String(Math.floor(instant / 1000)) : this.receiptNumber(date);
    const codeRoll = random.next();
    const receiptCode = codeRoll < 0.004 ? 99 : codeRoll < 0.008 ? 100 : null;

    const raw = this.rawReceipt({
      receiptId,
      date,
      secondOfDay,
      items,
      names,
      subtotal,
      discount,
      nameReason: discounted ? nameReason : null,
      total,
      payments,
      tableNo,
      takeAway,
      deliveryInfo,
      member,
      isVoid,
      foc,
      receiptCode,
    });

    return {
      outletId: this.outletId,
      receiptId,
      datetime: new Date(instant),
      dineOutTime: dineOut === null ? null : new Date(dineOut),
      totalAmount: total,
      discount,
      voucherAmount,
      refundAmount,
      paymentMethod,
      isMember: member,
      memberId: member ? this.memberId() : null,
      nameReason,
      tableNo,
      takeAway,
      deliveryInfo,
      openedBill: opened || (isVoid && random.chance(0.3)),
      void: isVoid,
      closedBill: !opened && !isVoid,
      focBill: foc,
      focReason: foc ? random.pick(FOC_REASONS) : null,
      redeemBill: voucherAmount > 0,
      receiptCode,
      rawReceipt: raw,
      payments,
      items,
    };
  }

  private receiptNumber(date: string): string {
    const plan = this.plan;
    switch (plan.receiptFormat) {
      case 0:
        return `${plan.code.replace(/-/g, '')}-${date.replace(/-/g, '')}-${String(this.counter % 10000).padStart(4, '0')}`;
      case 1:
        return `INV${String(this.counter).padStart(8, '0')}`;
      default:
        return `R${String(this.outletId).padStart(3, '0')}${String(this.counter).padStart(7, '0')}`;
    }
  }

  private rawReceipt(r: {
    receiptId: string;
    date: string;
    secondOfDay: number;
    items: ReceiptItemInput[];
    names: string[];
    subtotal: number;
    discount: number;
    nameReason: string | null;
    total: number;
    payments: ReceiptPaymentInput[];
    tableNo: string | null;
    takeAway: boolean;
    deliveryInfo: string | null;
    member: boolean;
    isVoid: boolean;
    foc: boolean;
    receiptCode: number | null;
  }): string {
    const currency = this.plan.mall.currency;
    const lines: string[] = [this.header, ''];
    lines.push(`Receipt: ${r.receiptId}`);
    lines.push(`Date: ${r.date} ${clock(r.secondOfDay)}`);
    if (r.tableNo) lines.push(`Table: ${r.tableNo}`);
    else if (r.deliveryInfo) lines.push(`DELIVERY ${r.deliveryInfo}`);
    else if (r.takeAway) lines.push('TAKE AWAY');
    lines.push(RULE);
    for (let i = 0; i < r.items.length; i++) {
      const item = itemAt(r.items, i);
      lines.push(row(`${item.quantity} x ${r.names[i] ?? ''}`, this.format(item.amount)));
    }
    lines.push(RULE);
    lines.push(row('Subtotal', this.format(r.foc ? 0 : r.subtotal)));
    if (r.discount > 0)
      lines.push(row(`Discount${r.nameReason ? ` (${r.nameReason})` : ''}`, `-${this.format(r.discount)}`));
    lines.push(row(`TOTAL ${currency}`, this.format(r.total)));
    for (const payment of r.payments) lines.push(row(payment.method || 'UNPAID', this.format(payment.amount)));
    lines.push(RULE);
    if (r.member) lines.push('Member: points earned');
    if (r.foc) lines.push('*** FOC ***');
    if (r.isVoid) lines.push('*** VOID ***');
    lines.push(center('Thank you! Please come again.'));
    const text = lines.join('\n');
    // Codes 99 and 100 come from an older printer driver: tabs and a few undecodable bytes.
    if (r.receiptCode !== null) return `\uFFFD${text.replace(/ {2,}/g, '\t')}\uFFFD`;
    return text;
  }
}

function center(text: string): string {
  const clipped = text.length > WIDTH ? text.slice(0, WIDTH) : text;
  return ' '.repeat(Math.floor((WIDTH - clipped.length) / 2)) + clipped;
}

function row(label: string, amount: string): string {
  const room = WIDTH - amount.length - 1;
  const left = label.length > room ? label.slice(0, room) : label;
  return left + ' '.repeat(WIDTH - left.length - amount.length) + amount;
}

function clock(secondOfDay: number): string {
  const h = Math.floor(secondOfDay / 3600);
  const m = Math.floor((secondOfDay % 3600) / 60);
  const s = secondOfDay % 60;
  return `${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}:${s < 10 ? '0' : ''}${s}`;
}

function isoDate(day: number): string {
  const { year, month, day: d } = civil(day);
  return `${year}-${month < 10 ? '0' : ''}${month}-${d < 10 ? '0' : ''}${d}`;
}

/** The instant of another second of the same local day (no clock change happens while the mall is open). */
function instantAtSecond(instant: number, secondOfDay: number, targetSecond: number): number {
  return instant + (targetSecond - secondOfDay) * 1000;
}
