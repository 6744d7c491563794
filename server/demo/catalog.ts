/**
 * The fixed content of the demo world: clients, malls, brands, menus and product ranges. Which brands a mall
 * gets, prices and everything random is decided by the seeded generator.
 */

import type { Country } from './festivalDays.js';

export type ClientKey = 'harbourfront' | 'sunrise';

export const CLIENTS: readonly { key: ClientKey; name: string; reportingCurrency: string }[] = [
  { key: 'harbourfront', name: 'Harbourfront Malls', reportingCurrency: 'SGD' },
  { key: 'sunrise', name: 'Sunrise Retail Group', reportingCurrency: 'IDR' },
];

/**
 * Monthly exchange rates to the reporting currency of a client whose malls use another currency: around `rate`
 * (units of the reporting currency for one unit), moving by up to `swing` either way from month to month.
 */
export const EXCHANGE_RATES: readonly { client: ClientKey; currency: string; rate: number; swing: number }[] = [
  { client: 'harbourfront', currency: 'MYR', rate: 0.2985, swing: 0.006 },
];

export interface MallSpec {
  key: string;
  client: ClientKey;
  name: string;
  /** Appended to a brand name that the client already has in another mall. */
  shortName: string;
  code: string;
  timeZone: string;
  /** Whose festivals shape the mall's sales (festivalDays.ts). */
  country: Country;
  currency: string;
  /** Prices are written in SGD and multiplied by this. */
  priceScale: number;
  /** Prices are rounded to a multiple of this. */
  priceStep: number;
  /** GS1 country prefix of barcodes. */
  barcodePrefix: string;
  fnbOutlets: number;
  retailOutlets: number;
  /** Tender types and their weights, as the point-of-sale systems capture them (case and blanks included). */
  paymentMethods: readonly (readonly [string, number])[];
  /** The card or wallet used for the rest of a split or voucher payment. */
  cardMethods: readonly string[];
  deliveryPartners: readonly string[];
  /** Relative busyness of the mall (transactions per outlet). */
  traffic: number;
}

/** The goods and services tax of each demo mall's country by its currency, in percent (SST in Malaysia, PPN in Indonesia). */
export const GST_PERCENT: Readonly<Record<string, number>> = { SGD: 9, MYR: 6, IDR: 11 };

export const MALLS: readonly MallSpec[] = [
  {
    key: 'hfc',
    client: 'harbourfront',
    name: 'Harbourfront Centre',
    shortName: 'Harbourfront',
    code: 'HFC',
    timeZone: 'Asia/Singapore',
    country: 'SG',
    currency: 'SGD',
    priceScale: 1,
    priceStep: 0.1,
    barcodePrefix: '888',
    fnbOutlets: 20,
    retailOutlets: 30,
    paymentMethods: [
      ['VISA', 24],
      ['MASTERCARD', 16],
      ['AMEX', 4],
      ['NETS', 13],
      ['CASH', 9],
      ['GRABPAY', 8],
      ['PAYNOW', 11],
      ['visa', 2.5],
      ['mastercard', 1.2],
      ['Nets', 0.6],
      ['', 1.2],
      ['NONE', 0.5],
    ],
    cardMethods: ['VISA', 'MASTERCARD', 'NETS', 'PAYNOW'],
    deliveryPartners: ['GrabFood', 'foodpanda', 'Deliveroo'],
    traffic: 1.15,
  },
  {
    key: 'bbp',
    client: 'harbourfront',
    name: 'Bukit Bintang Plaza',
    shortName: 'Bukit Bintang',
    code: 'BBP',
    timeZone: 'Asia/Kuala_Lumpur',
    country: 'MY',
    currency: 'MYR',
    priceScale: 2.6,
    priceStep: 0.1,
    barcodePrefix: '955',
    fnbOutlets: 17,
    retailOutlets: 25,
    paymentMethods: [
      ['VISA', 22],
      ['MASTERCARD', 17],
      ['AMEX', 2],
      ['CASH', 18],
      ['GRABPAY', 9],
      ['TNG EWALLET', 13],
      ['BOOST', 4],
      ['DUITNOW', 8],
      ['visa', 2],
      ['', 1.5],
      ['NONE', 0.6],
    ],
    cardMethods: ['VISA', 'MASTERCARD', 'TNG EWALLET'],
    deliveryPartners: ['GrabFood', 'foodpanda', 'ShopeeFood'],
    traffic: 1,
  },
  {
    key: 'smk',
    client: 'sunrise',
    name: 'Sunrise Mall Kemang',
    shortName: 'Kemang',
    code: 'SMK',
    timeZone: 'Asia/Jakarta',
    country: 'ID',
    currency: 'IDR',
    priceScale: 9000,
    priceStep: 500,
    barcodePrefix: '899',
    fnbOutlets: 15,
    retailOutlets: 21,
    paymentMethods: [
      ['QRIS', 20],
      ['GOPAY', 15],
      ['OVO', 11],
      ['VISA', 13],
      ['MASTERCARD', 9],
      ['DEBIT BCA', 10],
      ['CASH', 16],
      ['visa', 1.5],
      ['', 1.5],
      ['NONE', 0.6],
    ],
    cardMethods: ['VISA', 'MASTERCARD', 'DEBIT BCA', 'QRIS'],
    deliveryPartners: ['GoFood', 'GrabFood', 'ShopeeFood'],
    traffic: 1.05,
  },
];

/** How an outlet sells across the day. */
export type Profile = 'restaurant' | 'cafe' | 'quick' | 'dessert' | 'retail' | 'grocery';

export interface BrandSpec {
  name: string;
  type: 1 | 2;
  category: string;
  /** Key of the product range in RANGES. */
  range: string;
  profile: Profile;
}

const fnb = (name: string, range: string, profile: Profile): BrandSpec => ({
  name,
  type: 1,
  category: 'F&B',
  range,
  profile,
});
const shop = (name: string, category: string, range: string, profile: Profile = 'retail'): BrandSpec => ({
  name,
  type: 2,
  category,
  range,
  profile,
});

export const FNB_BRANDS: readonly BrandSpec[] = [
  fnb('Golden Wok Kitchen', 'chinese', 'restaurant'),
  fnb('Bamboo Dumpling House', 'chinese', 'restaurant'),
  fnb('Dim Sum Dynasty', 'chinese', 'restaurant'),
  fnb('Crispy Duck Roast House', 'chinese', 'quick'),
  fnb('Hainan Chicken Rice Co.', 'chinese', 'quick'),
  fnb('Wonton Noodle Bar', 'chinese', 'quick'),
  fnb('Mala Hotpot House', 'hotpot', 'restaurant'),
  fnb('Sakura Sushi Bar', 'japanese', 'restaurant'),
  fnb('Tokyo Ramen Lab', 'japanese', 'restaurant'),
  fnb('Yakitori Yoru', 'japanese', 'restaurant'),
  fnb('Seoul Street BBQ', 'korean', 'restaurant'),
  fnb('Little Saigon Pho', 'vietnamese', 'restaurant'),
  fnb('Thai Orchid Kitchen', 'thai', 'restaurant'),
  fnb('Spice Route Curry House', 'indian', 'restaurant'),
  fnb('Tandoori Nights', 'indian', 'restaurant'),
  fnb('Roti & Co.', 'indian', 'quick'),
  fnb('Nasi Lemak Express', 'malay', 'quick'),
  fnb('Laksa Lane', 'malay', 'quick'),
  fnb('Satay Street', 'malay', 'quick'),
  fnb('Nyonya Heritage Kitchen', 'malay', 'restaurant'),
  fnb('Sambal Kitchen', 'malay', 'restaurant'),
  fnb('Mamma Mia Pizzeria', 'italian', 'restaurant'),
  fnb('Pasta Piazza', 'italian', 'restaurant'),
  fnb('Fire & Smoke Steakhouse', 'western', 'restaurant'),
  fnb('Harbour Seafood Grill', 'western', 'restaurant'),
  fnb('Fish & Chips Wharf', 'western', 'quick'),
  fnb('Burger Foundry', 'fastfood', 'quick'),
  fnb('Bao Down', 'fastfood', 'quick'),
  fnb('Green Bowl Salads', 'healthy', 'quick'),
  fnb('Poke Paradise', 'healthy', 'quick'),
  fnb('Juice Junction', 'healthy', 'quick'),
  fnb('The Daily Grind Coffee', 'cafe', 'cafe'),
  fnb('Bean Counter Cafe', 'cafe', 'cafe'),
  fnb('Kopi Kita', 'kopitiam', 'cafe'),
  fnb('Kaya Toast Co.', 'kopitiam', 'cafe'),
  fnb('Teh Tarik Corner', 'kopitiam', 'cafe'),
  fnb('Bread Theory Bakery', 'bakery', 'cafe'),
  fnb('Sugar & Spoon Patisserie', 'bakery', 'dessert'),
  fnb('Boba Bliss', 'bubbletea', 'dessert'),
  fnb('Bubble Cup Tea', 'bubbletea', 'dessert'),
  fnb('Gelato Fresco', 'dessert', 'dessert'),
  fnb('Waffle Works', 'dessert', 'dessert'),
  fnb('Matcha Moments', 'dessert', 'dessert'),
];

export const RETAIL_BRANDS: readonly BrandSpec[] = [
  shop('Urban Threads', 'Fashion', 'fashion'),
  shop('Linen & Loom', 'Fashion', 'fashion'),
  shop('Denim District', 'Fashion', 'fashion'),
  shop('Petite Atelier', 'Fashion', 'fashion'),
  shop("Gentleman's Row", 'Fashion', 'fashion'),
  shop('Weekend Wardrobe', 'Fashion', 'fashion'),
  shop('Modest Muse', 'Fashion', 'fashion'),
  shop('Silk Route Boutique', 'Fashion', 'fashion'),
  shop('Kids Kloset', 'Fashion', 'kids'),
  shop('Stride Footwear', 'Fashion', 'footwear'),
  shop('Sole Society Shoes', 'Fashion', 'footwear'),
  shop('Bag & Baggage', 'Fashion', 'bags'),
  shop('Active Edge Sportswear', 'Sports', 'sports'),
  shop('Sports Arena', 'Sports', 'sports'),
  shop('Cycle Works', 'Sports', 'cycling'),
  shop('Glow Lab', 'Beauty', 'beauty'),
  shop('Pure Petals Skincare', 'Beauty', 'beauty'),
  shop('Blush & Brush Cosmetics', 'Beauty', 'beauty'),
  shop('Herbal Haven', 'Beauty', 'beauty'),
  shop('Scent Story', 'Beauty', 'fragrance'),
  shop('Aura Fragrance', 'Beauty', 'fragrance'),
  shop('Circuit Gadgets', 'Electronics', 'electronics'),
  shop('Mobile Hub', 'Electronics', 'mobile'),
  shop('Techtonic', 'Electronics', 'electronics'),
  shop('SoundWave Audio', 'Electronics', 'audio'),
  shop('PixelPoint Cameras', 'Electronics', 'camera'),
  shop('Game Haven', 'Electronics', 'gaming'),
  shop('Home & Hearth', 'Lifestyle', 'home'),
  shop('Zen Living', 'Lifestyle', 'home'),
  shop('Paper Trail Stationery', 'Lifestyle', 'stationery'),
  shop('Green Thumb Florist', 'Lifestyle', 'florist'),
  shop('Pet Pals', 'Lifestyle', 'pets'),
  shop('Gift Box Co.', 'Lifestyle', 'gifts'),
  shop('Travel Gear Co.', 'Lifestyle', 'travel'),
  shop('Fresh Mart', 'Supermarket', 'grocery', 'grocery'),
  shop('Daily Needs Minimart', 'Supermarket', 'grocery', 'grocery'),
  shop('Pharmacy Plus', 'Health', 'pharmacy', 'grocery'),
  shop('Wellness Corner', 'Health', 'pharmacy'),
  shop('Optic Vision', 'Health', 'optical'),
  shop('Page Turner Books', 'Books & Toys', 'books'),
  shop('Play Planet Toys', 'Books & Toys', 'toys'),
  shop('Timepiece Gallery', 'Jewellery & Watches', 'watches'),
  shop('Jewel Box', 'Jewellery & Watches', 'jewellery'),
  shop('Gold Heritage Jewellers', 'Jewellery & Watches', 'jewellery'),
];

/** An item of a range: name, price in SGD, subcategory (undefined: left unassigned). */
export type ItemTemplate = readonly [name: string, price: number, subcategory: string | undefined];

export interface Range {
  items: readonly ItemTemplate[];
  /** Variants multiplied into every item (colours, sizes, flavours); empty for none. */
  variants?: readonly string[];
}

const drinks: ItemTemplate[] = [
  ['Iced Lemon Tea', 3.8, 'Soft Drinks'],
  ['Soft Drink (Can)', 2.8, 'Soft Drinks'],
  ['Mineral Water', 2.0, 'Soft Drinks'],
  ['Hot Chinese Tea', 1.5, 'Tea'],
];

export const RANGES: Readonly<Record<string, Range>> = {
  chinese: {
    items: [
      ['Yangzhou Fried Rice', 12.8, 'Rice'],
      ['Sweet & Sour Pork', 16.8, 'Mains'],
      ['Kung Pao Chicken', 15.8, 'Mains'],
      ['Steamed Xiao Long Bao (6 pcs)', 9.8, 'Dim Sum'],
      ['Prawn Har Gow (4 pcs)', 7.8, 'Dim Sum'],
      ['Char Siew Bao (3 pcs)', 6.2, 'Dim Sum'],
      ['Braised Beef Noodle Soup', 13.8, 'Noodles'],
      ['Wonton Noodles', 7.5, 'Noodles'],
      ['Roast Duck Rice', 8.5, 'Rice'],
      ['Stir-fried Kai Lan', 10.8, 'Mains'],
      ['Hainanese Chicken Rice', 6.8, 'Rice'],
      ['Mango Pomelo Sago', 6.5, 'Desserts'],
      ...drinks,
    ],
  },
  hotpot: {
    items: [
      ['Mala Soup Base', 12.0, 'Soups'],
      ['Tomato Soup Base', 10.0, 'Soups'],
      ['Sliced Wagyu Beef', 24.0, 'Grill'],
      ['Pork Belly Slices', 14.0, 'Grill'],
      ['Fish Tofu', 5.5, 'Snacks'],
      ['Enoki Mushroom', 4.5, 'Snacks'],
      ['Handmade Noodles', 4.0, 'Noodles'],
      ['Prawn Paste', 9.0, 'Snacks'],
      ['Sauce Bar (per pax)', 3.5, undefined],
      ...drinks,
    ],
  },
  japanese: {
    items: [
      ['Salmon Sashimi (5 pcs)', 14.8, 'Sushi & Sashimi'],
      ['Chirashi Don', 22.8, 'Rice'],
      ['California Roll', 11.8, 'Sushi & Sashimi'],
      ['Tonkotsu Ramen', 15.8, 'Noodles'],
      ['Chicken Karaage', 9.8, 'Snacks'],
      ['Gyoza (5 pcs)', 7.8, 'Snacks'],
      ['Chicken Katsu Curry', 16.8, 'Rice'],
      ['Yakitori Platter', 18.0, 'Grill'],
      ['Miso Soup', 3.5, 'Soups'],
      ['Green Tea', 2.5, 'Tea'],
      ['Matcha Ice Cream', 5.8, 'Desserts'],
      ['Asahi Draft', 12.0, 'Soft Drinks'],
    ],
  },
  korean: {
    items: [
      ['Marinated Beef Bulgogi', 26.0, 'Grill'],
      ['Pork Belly Samgyeopsal', 22.0, 'Grill'],
      ['Kimchi Jjigae', 15.0, 'Soups'],
      ['Bibimbap', 14.5, 'Rice'],
      ['Japchae', 12.0, 'Noodles'],
      ['Korean Fried Chicken', 19.0, 'Snacks'],
      ['Tteokbokki', 11.0, 'Snacks'],
      ['Seafood Pancake', 16.0, 'Snacks'],
      ['Soju', 15.0, 'Soft Drinks'],
      ...drinks,
    ],
  },
  vietnamese: {
    items: [
      ['Beef Pho', 13.9, 'Noodles'],
      ['Chicken Pho', 12.9, 'Noodles'],
      ['Banh Mi', 8.9, 'Snacks'],
      ['Fresh Spring Rolls', 7.9, 'Snacks'],
      ['Bun Cha', 13.5, 'Noodles'],
      ['Broken Rice with Pork Chop', 12.5, 'Rice'],
      ['Vietnamese Drip Coffee', 4.9, 'Coffee'],
      ['Coconut Shake', 5.5, 'Juices'],
      ...drinks,
    ],
  },
  thai: {
    items: [
      ['Tom Yum Goong', 14.9, 'Soups'],
      ['Pad Thai', 12.9, 'Noodles'],
      ['Green Curry Chicken', 13.9, 'Mains'],
      ['Basil Minced Pork Rice', 10.9, 'Rice'],
      ['Pineapple Fried Rice', 12.9, 'Rice'],
      ['Som Tam', 8.9, 'Snacks'],
      ['Mango Sticky Rice', 7.9, 'Desserts'],
      ['Thai Milk Tea', 4.9, 'Tea'],
      ...drinks,
    ],
  },
  indian: {
    items: [
      ['Butter Chicken', 16.9, 'Mains'],
      ['Lamb Rogan Josh', 18.9, 'Mains'],
      ['Chicken Biryani', 15.9, 'Rice'],
      ['Garlic Naan', 4.5, 'Snacks'],
      ['Roti Prata (2 pcs)', 3.2, 'Snacks'],
      ['Masala Thosai', 4.8, 'Snacks'],
      ['Palak Paneer', 13.9, 'Mains'],
      ['Fish Head Curry', 28.0, 'Mains'],
      ['Mango Lassi', 5.5, 'Juices'],
      ['Teh Tarik', 2.2, 'Tea'],
      ...drinks,
    ],
  },
  malay: {
    items: [
      ['Nasi Lemak with Fried Chicken', 8.9, 'Rice'],
      ['Nasi Lemak Rendang', 10.9, 'Rice'],
      ['Laksa', 8.5, 'Noodles'],
      ['Mee Siam', 7.0, 'Noodles'],
      ['Chicken Satay (10 sticks)', 9.0, 'Grill'],
      ['Beef Satay (10 sticks)', 11.0, 'Grill'],
      ['Ayam Penyet', 11.5, 'Mains'],
      ['Otak-otak', 5.5, 'Snacks'],
      ['Chendol', 4.5, 'Desserts'],
      ['Kuih Platter', 6.0, 'Desserts'],
      ['Bandung', 3.0, 'Soft Drinks'],
      ...drinks,
    ],
  },
  italian: {
    items: [
      ['Margherita Pizza', 19.9, 'Mains'],
      ['Pepperoni Pizza', 22.9, 'Mains'],
      ['Truffle Mushroom Pizza', 25.9, 'Mains'],
      ['Spaghetti Carbonara', 18.9, 'Noodles'],
      ['Linguine Vongole', 21.9, 'Noodles'],
      ['Lasagna', 19.9, 'Mains'],
      ['Caesar Salad', 13.9, 'Salads'],
      ['Tiramisu', 9.9, 'Desserts'],
      ['House Red Wine (Glass)', 14.0, 'Soft Drinks'],
      ['Sparkling Water', 5.0, 'Soft Drinks'],
      ['Espresso', 4.0, 'Coffee'],
    ],
  },
  western: {
    items: [
      ['Ribeye Steak 300g', 42.0, 'Grill'],
      ['Grilled Salmon', 28.0, 'Grill'],
      ['Fish & Chips', 18.9, 'Mains'],
      ['Seafood Platter', 58.0, 'Mains'],
      ['Chicken Chop', 16.9, 'Grill'],
      ['Mushroom Soup', 7.9, 'Soups'],
      ['Truffle Fries', 9.9, 'Snacks'],
      ['Caesar Salad', 13.9, 'Salads'],
      ['Chocolate Lava Cake', 10.9, 'Desserts'],
      ['Craft Beer (Pint)', 14.0, 'Soft Drinks'],
      ['Iced Lemon Tea', 4.5, 'Soft Drinks'],
    ],
  },
  fastfood: {
    items: [
      ['Classic Cheeseburger', 9.9, 'Mains'],
      ['Double Beef Burger', 13.9, 'Mains'],
      ['Crispy Chicken Burger', 10.9, 'Mains'],
      ['Pork Belly Bao (2 pcs)', 8.9, 'Snacks'],
      ['Fries (Regular)', 3.9, 'Snacks'],
      ['Onion Rings', 4.9, 'Snacks'],
      ['Chicken Wings (6 pcs)', 8.9, 'Snacks'],
      ['Milkshake', 6.5, 'Soft Drinks'],
      ['Soft Drink (Cup)', 2.9, 'Soft Drinks'],
      ['Combo Meal Upgrade', 4.5, undefined],
    ],
  },
  healthy: {
    items: [
      ['Build-your-own Bowl', 13.9, 'Salads'],
      ['Salmon Poke Bowl', 15.9, 'Salads'],
      ['Tofu Grain Bowl', 12.9, 'Salads'],
      ['Chicken Caesar Wrap', 10.9, 'Snacks'],
      ['Cold-pressed Orange Juice', 6.9, 'Juices'],
      ['Green Detox Juice', 7.5, 'Juices'],
      ['Acai Bowl', 11.9, 'Desserts'],
      ['Protein Smoothie', 8.5, 'Juices'],
      ['Kombucha', 6.0, 'Soft Drinks'],
    ],
  },
  cafe: {
    items: [
      ['Flat White', 5.8, 'Coffee'],
      ['Cafe Latte', 5.8, 'Coffee'],
      ['Long Black', 4.8, 'Coffee'],
      ['Iced Mocha', 6.8, 'Coffee'],
      ['Matcha Latte', 6.5, 'Tea'],
      ['English Breakfast Tea', 4.5, 'Tea'],
      ['Butter Croissant', 4.2, 'Pastries'],
      ['Avocado Toast', 14.0, 'Snacks'],
      ['Big Breakfast', 19.0, 'Mains'],
      ['Banana Walnut Cake', 5.5, 'Cakes'],
      ['Chicken Pesto Sandwich', 11.0, 'Snacks'],
    ],
  },
  kopitiam: {
    items: [
      ['Kaya Toast Set', 5.9, 'Snacks'],
      ['Soft-boiled Eggs', 2.2, 'Snacks'],
      ['Kopi', 1.8, 'Coffee'],
      ['Kopi-O', 1.6, 'Coffee'],
      ['Teh', 1.8, 'Tea'],
      ['Teh Tarik', 2.2, 'Tea'],
      ['Milo Dinosaur', 3.5, 'Soft Drinks'],
      ['Mee Siam', 6.5, 'Noodles'],
      ['Nasi Lemak', 6.9, 'Rice'],
      ['Curry Puff', 2.0, 'Pastries'],
      ['Iced Bandung', 2.8, 'Soft Drinks'],
    ],
  },
  bakery: {
    items: [
      ['Sourdough Loaf', 8.5, 'Pastries'],
      ['Butter Croissant', 3.8, 'Pastries'],
      ['Pain au Chocolat', 4.2, 'Pastries'],
      ['Cinnamon Roll', 4.5, 'Pastries'],
      ['Egg Tart', 2.2, 'Pastries'],
      ['Cheesecake Slice', 7.5, 'Cakes'],
      ['Black Forest Cake (Whole)', 42.0, 'Cakes'],
      ['Macarons (6 pcs)', 15.0, 'Cakes'],
      ['Cafe Latte', 5.5, 'Coffee'],
      ['Pandan Chiffon Cake', 18.0, 'Cakes'],
    ],
  },
  bubbletea: {
    items: [
      ['Brown Sugar Boba Milk', 5.9, 'Bubble Tea'],
      ['Classic Milk Tea', 4.5, 'Bubble Tea'],
      ['Taro Milk Tea', 5.2, 'Bubble Tea'],
      ['Passion Fruit Green Tea', 4.8, 'Bubble Tea'],
      ['Oolong Cheese Foam', 5.6, 'Bubble Tea'],
      ['Mango Smoothie', 5.9, 'Juices'],
      ['Extra Pearls', 0.8, undefined],
      ['Matcha Latte', 5.4, 'Tea'],
    ],
  },
  dessert: {
    items: [
      ['Single Scoop Gelato', 4.9, 'Ice Cream'],
      ['Double Scoop Gelato', 7.9, 'Ice Cream'],
      ['Belgian Waffle', 8.9, 'Desserts'],
      ['Waffle with Ice Cream', 11.9, 'Desserts'],
      ['Matcha Parfait', 9.9, 'Desserts'],
      ['Mochi (3 pcs)', 6.5, 'Desserts'],
      ['Affogato', 7.5, 'Coffee'],
      ['Hojicha Soft Serve', 5.5, 'Ice Cream'],
      ['Pint Take-home Tub', 16.0, 'Ice Cream'],
    ],
  },
  fashion: {
    items: [
      ['Linen Shirt', 59.9, 'Tops'],
      ['Basic Crew Tee', 19.9, 'Tops'],
      ['Oxford Shirt', 49.9, 'Tops'],
      ['Slim Chinos', 59.9, 'Bottoms'],
      ['Straight Jeans', 79.9, 'Bottoms'],
      ['Midi Dress', 89.9, 'Dresses'],
      ['Knit Cardigan', 69.9, 'Outerwear'],
      ['Light Blazer', 129.0, 'Outerwear'],
      ['Pleated Skirt', 49.9, 'Bottoms'],
      ['Leather Belt', 39.9, undefined],
    ],
    variants: ['S', 'M', 'L'],
  },
  kids: {
    items: [
      ['Kids Graphic Tee', 15.9, 'Kidswear'],
      ['Kids Shorts', 17.9, 'Kidswear'],
      ['Baby Romper', 24.9, 'Kidswear'],
      ['Kids Dress', 29.9, 'Kidswear'],
      ['Kids Rain Jacket', 39.9, 'Outerwear'],
      ['Kids Pyjama Set', 25.9, 'Kidswear'],
      ['School Backpack', 45.0, 'Bags'],
    ],
    variants: ['2-3Y', '4-5Y', '6-7Y'],
  },
  footwear: {
    items: [
      ['Everyday Sneakers', 89.0, 'Sneakers'],
      ['Running Shoes', 139.0, 'Sneakers'],
      ['Leather Loafers', 119.0, 'Formal Shoes'],
      ['Block Heels', 99.0, 'Formal Shoes'],
      ['Slip-on Sandals', 39.0, undefined],
      ['Canvas Shoes', 59.0, 'Sneakers'],
      ['Shoe Care Kit', 19.0, undefined],
    ],
    variants: ['EU 38', 'EU 40', 'EU 42'],
  },
  bags: {
    items: [
      ['Leather Tote', 189.0, 'Bags'],
      ['Canvas Backpack', 79.0, 'Bags'],
      ['Crossbody Bag', 99.0, 'Bags'],
      ['Card Holder', 39.0, 'Bags'],
      ['Weekender Duffel', 149.0, 'Bags'],
      ['Laptop Sleeve', 49.0, 'Accessories'],
    ],
    variants: ['Black', 'Tan', 'Navy'],
  },
  sports: {
    items: [
      ['Dri-fit Training Tee', 35.0, 'Sportswear'],
      ['Running Shorts', 39.0, 'Sportswear'],
      ['Yoga Leggings', 69.0, 'Sportswear'],
      ['Yoga Mat', 49.0, 'Sports Equipment'],
      ['Badminton Racket', 129.0, 'Sports Equipment'],
      ['Football', 39.0, 'Sports Equipment'],
      ['Water Bottle 750ml', 25.0, undefined],
      ['Sports Socks (3 pairs)', 19.0, 'Sportswear'],
    ],
  },
  cycling: {
    items: [
      ['Cycling Helmet', 119.0, 'Sports Equipment'],
      ['Bike Lights Set', 49.0, 'Sports Equipment'],
      ['Inner Tube', 12.0, 'Sports Equipment'],
      ['Cycling Gloves', 35.0, 'Sportswear'],
      ['Bike Service (Basic)', 60.0, undefined],
      ['Folding Bicycle', 899.0, 'Sports Equipment'],
      ['Bike Lock', 39.0, 'Sports Equipment'],
    ],
  },
  beauty: {
    items: [
      ['Hydrating Serum 30ml', 58.0, 'Skincare'],
      ['Vitamin C Essence', 64.0, 'Skincare'],
      ['Gentle Cleanser', 28.0, 'Skincare'],
      ['Sheet Mask (5 pcs)', 18.0, 'Skincare'],
      ['Sunscreen SPF50', 32.0, 'Skincare'],
      ['Matte Lipstick', 29.0, 'Makeup'],
      ['Cushion Foundation', 45.0, 'Makeup'],
      ['Eyeliner Pen', 22.0, 'Makeup'],
      ['Night Cream 50ml', 72.0, 'Skincare'],
      ['Travel Kit', 35.0, undefined],
    ],
  },
  fragrance: {
    items: [
      ['Eau de Parfum 50ml', 128.0, 'Fragrance'],
      ['Eau de Toilette 100ml', 96.0, 'Fragrance'],
      ['Travel Spray 10ml', 38.0, 'Fragrance'],
      ['Scented Candle', 48.0, 'Decor'],
      ['Body Lotion', 42.0, 'Skincare'],
      ['Reed Diffuser', 58.0, 'Decor'],
      ['Gift Set', 148.0, 'Gifts'],
    ],
  },
  electronics: {
    items: [
      ['USB-C Charger 65W', 59.0, 'Accessories'],
      ['Power Bank 10000mAh', 49.0, 'Accessories'],
      ['Wireless Mouse', 39.0, 'Accessories'],
      ['Mechanical Keyboard', 149.0, 'Accessories'],
      ['27" Monitor', 349.0, 'Phones & Tablets'],
      ['Smart Watch', 299.0, 'Phones & Tablets'],
      ['HDMI Cable 2m', 19.0, 'Accessories'],
      ['Portable SSD 1TB', 169.0, 'Accessories'],
      ['Tablet 11"', 599.0, 'Phones & Tablets'],
      ['Extended Warranty', 79.0, undefined],
    ],
  },
  mobile: {
    items: [
      ['Smartphone 128GB', 899.0, 'Phones & Tablets'],
      ['Smartphone 256GB', 1199.0, 'Phones & Tablets'],
      ['Phone Case', 29.0, 'Accessories'],
      ['Tempered Glass Protector', 19.0, 'Accessories'],
      ['Fast Charger 25W', 29.0, 'Accessories'],
      ['Prepaid SIM Card', 15.0, undefined],
      ['Wireless Earbuds', 149.0, 'Audio'],
      ['Screen Repair Service', 120.0, undefined],
    ],
  },
  audio: {
    items: [
      ['Noise-cancelling Headphones', 449.0, 'Audio'],
      ['Wireless Earbuds', 199.0, 'Audio'],
      ['Bluetooth Speaker', 129.0, 'Audio'],
      ['Soundbar', 399.0, 'Audio'],
      ['Audio Cable', 15.0, 'Accessories'],
      ['Vinyl Record', 45.0, undefined],
      ['Ear Tips Set', 12.0, 'Accessories'],
    ],
  },
  camera: {
    items: [
      ['Mirrorless Camera Body', 1499.0, 'Cameras'],
      ['50mm Prime Lens', 399.0, 'Cameras'],
      ['Action Camera', 449.0, 'Cameras'],
      ['SD Card 128GB', 39.0, 'Accessories'],
      ['Camera Bag', 89.0, 'Bags'],
      ['Tripod', 79.0, 'Accessories'],
      ['Photo Printing (per print)', 0.5, undefined],
      ['Lens Cleaning Kit', 19.0, 'Accessories'],
    ],
  },
  gaming: {
    items: [
      ['Game Console', 699.0, 'Gaming'],
      ['Controller', 89.0, 'Gaming'],
      ['Game Title (Standard)', 79.0, 'Gaming'],
      ['Game Title (Deluxe)', 109.0, 'Gaming'],
      ['Gaming Headset', 129.0, 'Audio'],
      ['Gift Card $50', 50.0, 'Gifts'],
      ['Collectible Figure', 59.0, 'Toys'],
    ],
  },
  home: {
    items: [
      ['Ceramic Dinner Plate', 12.9, 'Kitchenware'],
      ['Cast Iron Pan', 79.0, 'Kitchenware'],
      ['Linen Bedsheet Set', 129.0, 'Decor'],
      ['Bath Towel', 25.0, 'Decor'],
      ['Table Lamp', 69.0, 'Decor'],
      ['Storage Basket', 29.0, 'Decor'],
      ['Glass Tumbler (4 pcs)', 19.9, 'Kitchenware'],
      ['Cushion Cover', 22.0, 'Decor'],
      ['Knife Set', 149.0, 'Kitchenware'],
    ],
  },
  stationery: {
    items: [
      ['Dot Grid Notebook', 14.9, 'Stationery'],
      ['Gel Pen Set', 9.9, 'Stationery'],
      ['Fountain Pen', 49.0, 'Stationery'],
      ['Desk Planner', 24.9, 'Stationery'],
      ['Washi Tape', 4.9, 'Stationery'],
      ['Greeting Card', 5.9, 'Gifts'],
      ['Art Marker Set', 34.9, 'Stationery'],
      ['Gift Wrapping', 3.0, undefined],
    ],
  },
  florist: {
    items: [
      ['Rose Bouquet (12 stalks)', 79.0, 'Gifts'],
      ['Mixed Flower Bouquet', 59.0, 'Gifts'],
      ['Potted Orchid', 68.0, 'Decor'],
      ['Succulent Pot', 18.0, 'Decor'],
      ['Sunflower Stalk', 8.0, 'Gifts'],
      ['Delivery Fee', 15.0, undefined],
      ['Hamper Basket', 128.0, 'Gifts'],
    ],
  },
  pets: {
    items: [
      ['Dry Dog Food 2kg', 42.0, 'Pet Supplies'],
      ['Cat Food (Wet, 6 cans)', 16.0, 'Pet Supplies'],
      ['Cat Litter 10L', 19.0, 'Pet Supplies'],
      ['Chew Toy', 12.0, 'Pet Supplies'],
      ['Pet Shampoo', 18.0, 'Pet Supplies'],
      ['Leash & Collar Set', 29.0, 'Pet Supplies'],
      ['Grooming Session', 65.0, undefined],
    ],
  },
  gifts: {
    items: [
      ['Gift Hamper', 88.0, 'Gifts'],
      ['Chocolate Box', 32.0, 'Gifts'],
      ['Photo Frame', 24.0, 'Decor'],
      ['Plush Toy', 29.0, 'Toys'],
      ['Mug Set', 26.0, 'Kitchenware'],
      ['Greeting Card', 5.9, 'Gifts'],
      ['Gift Wrapping', 3.0, undefined],
    ],
  },
  travel: {
    items: [
      ['Cabin Luggage 20"', 229.0, 'Bags'],
      ['Check-in Luggage 28"', 329.0, 'Bags'],
      ['Travel Adapter', 29.0, 'Accessories'],
      ['Neck Pillow', 25.0, 'Accessories'],
      ['Packing Cubes (3 pcs)', 35.0, 'Bags'],
      ['Luggage Tag', 12.0, 'Accessories'],
      ['TSA Lock', 19.0, 'Accessories'],
    ],
  },
  grocery: {
    items: [
      ['Fresh Milk 1L', 3.4, 'Dairy'],
      ['Eggs (10 pcs)', 3.9, 'Fresh Produce'],
      ['Jasmine Rice 5kg', 13.5, 'Pantry'],
      ['Wholemeal Bread', 3.2, 'Pantry'],
      ['Bananas (1kg)', 2.9, 'Fresh Produce'],
      ['Chicken Breast 500g', 6.9, 'Fresh Produce'],
      ['Instant Noodles (5 pack)', 3.6, 'Pantry'],
      ['Cooking Oil 2L', 7.9, 'Pantry'],
      ['Greek Yoghurt', 4.5, 'Dairy'],
      ['Apples (6 pcs)', 5.5, 'Fresh Produce'],
      ['Mineral Water (6 pack)', 4.8, 'Soft Drinks'],
      ['Tissue Box (5 pack)', 6.9, undefined],
      ['Dish Soap', 3.5, undefined],
      ['Coffee Beans 500g', 18.9, 'Coffee'],
    ],
  },
  pharmacy: {
    items: [
      ['Vitamin C 1000mg', 24.9, 'Supplements'],
      ['Fish Oil Capsules', 32.9, 'Supplements'],
      ['Paracetamol (20 tabs)', 4.5, 'Pharmacy'],
      ['Hand Sanitiser', 5.9, 'Pharmacy'],
      ['Face Masks (50 pcs)', 9.9, 'Pharmacy'],
      ['Multivitamins', 28.9, 'Supplements'],
      ['Plasters (20 pcs)', 3.9, 'Pharmacy'],
      ['Lip Balm', 5.5, 'Skincare'],
      ['Toothpaste', 4.9, undefined],
    ],
  },
  optical: {
    items: [
      ['Prescription Lenses', 180.0, 'Eyewear'],
      ['Designer Frames', 260.0, 'Eyewear'],
      ['Sunglasses', 159.0, 'Eyewear'],
      ['Contact Lenses (Monthly)', 45.0, 'Eyewear'],
      ['Lens Solution', 14.0, 'Eyewear'],
      ['Eye Test', 20.0, undefined],
    ],
  },
  books: {
    items: [
      ['Paperback Novel', 19.9, 'Books'],
      ['Hardcover Bestseller', 34.9, 'Books'],
      ["Children's Picture Book", 14.9, 'Books'],
      ['Cookbook', 39.9, 'Books'],
      ['Travel Guide', 29.9, 'Books'],
      ['Magazine', 9.9, 'Books'],
      ['Bookmark', 2.9, undefined],
      ['Assessment Book', 12.9, 'Books'],
    ],
  },
  toys: {
    items: [
      ['Building Blocks Set', 59.9, 'Toys'],
      ['Remote Control Car', 49.9, 'Toys'],
      ['Board Game', 39.9, 'Toys'],
      ['Jigsaw Puzzle 1000 pcs', 29.9, 'Toys'],
      ['Plush Toy', 24.9, 'Toys'],
      ['Art & Craft Kit', 19.9, 'Toys'],
      ['Doll House', 89.9, 'Toys'],
      ['Batteries (AA, 4 pcs)', 6.9, undefined],
    ],
  },
  watches: {
    items: [
      ['Automatic Watch', 1290.0, 'Watches'],
      ['Quartz Watch', 390.0, 'Watches'],
      ['Dive Watch', 890.0, 'Watches'],
      ['Leather Strap', 89.0, 'Watches'],
      ['Battery Replacement', 25.0, undefined],
      ['Watch Winder', 299.0, 'Watches'],
    ],
  },
  jewellery: {
    items: [
      ['916 Gold Chain', 980.0, 'Gold'],
      ['Gold Bangle', 1580.0, 'Gold'],
      ['Diamond Stud Earrings', 1280.0, 'Fine Jewellery'],
      ['Pearl Necklace', 680.0, 'Fine Jewellery'],
      ['Silver Bracelet', 180.0, 'Fine Jewellery'],
      ['Engraving Service', 30.0, undefined],
      ['Gold Pendant', 460.0, 'Gold'],
    ],
  },
};

/** The client-level catalogue: categories and their subcategories; the last entry's are left unassigned. */
export const CATEGORY_TREE: readonly { category: string | null; subcategories: readonly string[] }[] = [
  {
    category: 'Food',
    subcategories: ['Rice', 'Noodles', 'Mains', 'Grill', 'Soups', 'Snacks', 'Salads', 'Dim Sum', 'Sushi & Sashimi'],
  },
  { category: 'Beverages', subcategories: ['Coffee', 'Tea', 'Juices', 'Bubble Tea', 'Soft Drinks'] },
  { category: 'Desserts & Bakery', subcategories: ['Desserts', 'Cakes', 'Pastries', 'Ice Cream'] },
  { category: 'Apparel', subcategories: ['Tops', 'Bottoms', 'Dresses', 'Outerwear', 'Kidswear', 'Sportswear'] },
  { category: 'Footwear & Bags', subcategories: ['Sneakers', 'Formal Shoes', 'Bags'] },
  { category: 'Beauty & Personal Care', subcategories: ['Skincare', 'Makeup', 'Fragrance'] },
  { category: 'Electronics', subcategories: ['Phones & Tablets', 'Audio', 'Cameras', 'Gaming', 'Accessories'] },
  { category: 'Home & Living', subcategories: ['Kitchenware', 'Decor', 'Stationery', 'Pet Supplies'] },
  { category: 'Groceries', subcategories: ['Fresh Produce', 'Pantry', 'Dairy'] },
  { category: 'Health', subcategories: ['Supplements', 'Pharmacy', 'Eyewear'] },
  { category: 'Leisure', subcategories: ['Books', 'Toys', 'Sports Equipment'] },
  { category: 'Jewellery & Watches', subcategories: ['Watches', 'Gold', 'Fine Jewellery'] },
  { category: 'Seasonal', subcategories: [] },
  // Subcategories not yet placed in a category (the settings page assigns them).
  { category: null, subcategories: ['Gifts', 'Toys & Collectibles', 'Clearance', 'Festive Specials'] },
];

export const FOC_REASONS: readonly string[] = [
  'Staff meal',
  'Complaint',
  'Promotion',
  'Tasting',
  'Manager approval',
  'Birthday treat',
  'Replacement',
];

export const DISCOUNT_REASONS: readonly string[] = [
  'Member 10%',
  'Staff discount',
  'Happy hour',
  'Birthday promo',
  'Senior citizen',
  'Student discount',
  'Bundle deal',
  'Opening promotion',
];

export const VOID_REASONS: readonly string[] = [
  'Void: wrong order',
  'Void: duplicate bill',
  'Void: customer cancelled',
  'Void: wrong payment',
  'Void: test transaction',
];

export const REFUND_REASONS: readonly string[] = [
  'Refund: wrong size',
  'Refund: defective item',
  'Refund: change of mind',
  'Refund: overcharged',
  'Refund: cold food',
];

export const CUSTOMER_NAMES: readonly string[] = [
  'Tan',
  'Lim',
  'Lee',
  'Ng',
  'Wong',
  'Goh',
  'Chua',
  'Kumar',
  'Rahman',
  'Ahmad',
  'Siti',
  'Putri',
  'Budi',
  'Chen',
  'Wei',
  'Sarah',
  'John',
  'Mei Ling',
  'Aisha',
  'Raj',
];

export const NON_TRADING_REASONS: readonly string[] = ['Renovation', 'Stocktake', 'Private event', 'Mall maintenance'];

/** Processing fee ranges (percent) by payment method; methods not listed have none. */
export const PROCESSING_FEES: Readonly<Record<string, readonly [number, number]>> = {
  VISA: [1.6, 2.4],
  MASTERCARD: [1.6, 2.4],
  AMEX: [2.8, 3.4],
  NETS: [0.5, 0.9],
  GRABPAY: [1.5, 2.5],
  PAYNOW: [0.2, 0.5],
  'TNG EWALLET': [1.0, 1.5],
  BOOST: [1.0, 1.5],
  DUITNOW: [0.3, 0.6],
  QRIS: [0.6, 0.8],
  GOPAY: [1.5, 2.0],
  OVO: [1.5, 2.0],
  'DEBIT BCA': [0.8, 1.2],
  CASH: [0, 0],
};
