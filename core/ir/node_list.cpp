#include "core/ir/node_list.h"

#include <cassert>
#include <stdexcept>
#include <utility>

#include "core/ir/node.h"

namespace passlab::ir {
namespace {
// `c`, the chunk of `n`; nullptr means n is in no list (removed, or held by
// an undo log), which every edit refuses.
template <class C>
C* placed(C* c, const Node* n) {
  if (c == nullptr) throw std::logic_error("NodeList: " + n->describe() + " is not in a graph");
  return c;
}
}  // namespace

NodeList::~NodeList() {
  while (tail_) {
    Chunk* c = tail_;
    while (c->count > 0) c->entries[--c->count].reset();
    tail_ = c->prev;
    delete c;
  }
}

void NodeList::setChunk(Node* n, Chunk* c) {
  n->chunk_ = c;
}
NodeList::Chunk* NodeList::chunkOf(const Node* n) {
  return n->chunk_;
}

uint32_t NodeList::indexIn(const Chunk* c, const Node* n) {
  for (uint32_t i = 0; i < c->count; ++i)
    if (c->entries[i].get() == n) return i;
  throw std::logic_error("NodeList: " + n->describe() + " is not in its chunk");
}

NodeList::Chunk* NodeList::newChunkAfter(Chunk* c) {
  Chunk* fresh = new Chunk();
  fresh->prev = c;
  fresh->next = c ? c->next : head_;
  if (fresh->next)
    fresh->next->prev = fresh;
  else
    tail_ = fresh;
  if (c)
    c->next = fresh;
  else
    head_ = fresh;
  return fresh;
}

void NodeList::unlink(Chunk* c) {
  assert(c->count == 0);
  if (c->prev)
    c->prev->next = c->next;
  else
    head_ = c->next;
  if (c->next)
    c->next->prev = c->prev;
  else
    tail_ = c->prev;
  delete c;
}

void NodeList::split(Chunk* c) {
  Chunk* upper = newChunkAfter(c);
  const uint32_t keep = c->count / 2;
  for (uint32_t i = keep; i < c->count; ++i) {
    setChunk(c->entries[i].get(), upper);
    upper->entries[upper->count++] = std::move(c->entries[i]);
  }
  c->count = keep;
}

void NodeList::insert(std::unique_ptr<Node>&& n, Node* before) {
  // First what can throw (a place outside the list, a chunk to allocate),
  // then the moves, which cannot.
  Chunk* c = nullptr;
  uint32_t at = 0;
  if (before == nullptr) {
    c = tail_;
    if (c == nullptr || c->count == kChunkCapacity) c = newChunkAfter(tail_);
    at = c->count;
  } else {
    c = placed(chunkOf(before), before);
    if (c->count == kChunkCapacity) {
      split(c);
      c = chunkOf(before);  // either half
    }
    at = indexIn(c, before);
    for (uint32_t i = c->count; i > at; --i) c->entries[i] = std::move(c->entries[i - 1]);
  }
  setChunk(n.get(), c);
  c->entries[at] = std::move(n);
  ++c->count;
  ++size_;
}

std::unique_ptr<Node> NodeList::take(Node* n) {
  Chunk* c = placed(chunkOf(n), n);
  uint32_t at = indexIn(c, n);
  std::unique_ptr<Node> out = std::move(c->entries[at]);
  for (uint32_t i = at + 1; i < c->count; ++i) c->entries[i - 1] = std::move(c->entries[i]);
  --c->count;
  --size_;
  setChunk(n, nullptr);
  rebalance(c);
  return out;
}

void NodeList::rebalance(Chunk* c) {
  if (c->count == 0) {
    unlink(c);
    return;
  }
  if (c->count >= kChunkCapacity / 4) return;
  // Merge with a neighbour when the two fit in half a chunk: the merged
  // chunk can take as many removals as it has nodes before merging again,
  // and as many insertions before splitting, so the nodes moved here are
  // paid for by the edits that follow.
  auto absorb = [this](Chunk* into, Chunk* from) {
    for (uint32_t i = 0; i < from->count; ++i) {
      setChunk(from->entries[i].get(), into);
      into->entries[into->count++] = std::move(from->entries[i]);
    }
    from->count = 0;
    unlink(from);
  };
  if (c->next && c->count + c->next->count <= kChunkCapacity / 2)
    absorb(c, c->next);
  else if (c->prev && c->prev->count + c->count <= kChunkCapacity / 2)
    absorb(c->prev, c);
}

Node* NodeList::next(const Node* n) const {
  const Chunk* c = placed(chunkOf(n), n);
  uint32_t at = indexIn(c, n);
  if (at + 1 < c->count) return c->entries[at + 1].get();
  return c->next ? c->next->entries[0].get() : nullptr;
}

void NodeList::move(Node* n, Node* before) {
  if (n == before) return;
  // What can fail (a place outside the list, a chunk to allocate) is done
  // before n leaves the list, so a failure loses nothing.
  placed(chunkOf(n), n);
  if (before) {
    Chunk* c = placed(chunkOf(before), before);
    // Half full after the split; taking n cannot fill it again (merges stop at half).
    if (c->count == kChunkCapacity) split(c);
  } else if (tail_->count == kChunkCapacity) {
    newChunkAfter(tail_);  // empty until n arrives (or merged away when n leaves)
  }
  insert(take(n), before);
}

void NodeList::reorder(const std::vector<Node*>& order) {
  // The caller (Graph::sortTopologically) passes a permutation of this list.
  assert(order.size() == size_);
  // The new chunks first, while the list is intact: nothing after this
  // allocates, so a failure loses no node.
  std::vector<std::unique_ptr<Chunk>> fresh((order.size() + kChunkCapacity - 1) / kChunkCapacity);
  for (auto& c : fresh) c = std::make_unique<Chunk>();
  for (Chunk* c = head_; c; c = c->next)
    for (uint32_t i = 0; i < c->count; ++i) (void)c->entries[i].release();
  while (head_) {
    head_->count = 0;
    unlink(head_);
  }
  size_ = 0;
  size_t next = 0;
  for (auto& owned : fresh) {
    Chunk* c = owned.release();
    c->prev = tail_;
    if (tail_)
      tail_->next = c;
    else
      head_ = c;
    tail_ = c;
    while (c->count < kChunkCapacity && next < order.size()) {
      Node* n = order[next++];
      setChunk(n, c);
      c->entries[c->count++].reset(n);
      ++size_;
    }
  }
}

void NodeList::numberChunks() const {
  uint32_t rank = 0;
  for (const Chunk* c = head_; c; c = c->next) c->rank = rank++;
}

bool NodeList::isPlaced(const Node* n) {
  return chunkOf(n) != nullptr;
}

bool NodeList::precedes(const Node* a, const Node* b) {
  const Chunk* ca = placed(chunkOf(a), a);
  const Chunk* cb = placed(chunkOf(b), b);
  if (ca != cb) return ca->rank < cb->rank;
  for (uint32_t i = 0; i < ca->count; ++i) {
    const Node* n = ca->entries[i].get();
    if (n == a) return a != b;
    if (n == b) return false;
  }
  throw std::logic_error("NodeList: " + a->describe() + " is not in its chunk");
}

}  // namespace passlab::ir
