import Foundation
import Testing
import ToolSupport

@testable import BuilderOSKit

struct WakeOnLANTests {
    @Test(arguments: ["3c:22:fb:12:34:56", "3C-22-FB-12-34-56", "3c22fb123456", "3c22.fb12.3456", " 3c:22:fb:12:34:56 "])
    func acceptedMACs(_ text: String) throws {
        #expect(try WakeOnLAN(mac: text).mac == [0x3c, 0x22, 0xfb, 0x12, 0x34, 0x56])
    }

    @Test(arguments: ["", "3c:22:fb:12:34", "3c:22:fb:12:34:5g", "3c:22:fb:12:34:56:78", "3c:22-fb:12:34:56x", "hello"])
    func rejectedMACs(_ text: String) {
        #expect(throws: WakeOnLANProblem.invalidMAC) { try WakeOnLAN(mac: text) }
    }

    @Test func broadcastAddresses() throws {
        #expect(try WakeOnLAN(mac: "3c22fb123456").broadcast == "255.255.255.255")
        #expect(try WakeOnLAN(mac: "3c22fb123456", broadcast: "192.168.1.255").broadcast == "192.168.1.255")
        #expect(try WakeOnLAN(mac: "3c22fb123456", broadcast: "10.0.0.255:7").port == 7)
        for bad in ["192.168.1", "192.168.1.256", "example.com", "1.2.3.4.5", "10.0.0.255:", "10.0.0.255:70000"] {
            #expect(throws: WakeOnLANProblem.invalidBroadcast) { try WakeOnLAN(mac: "3c22fb123456", broadcast: bad) }
        }
    }

    @Test func packetArrivesAtAUDPListener() throws {
        let (fd, port) = try #require(Loopback.bind(datagram: true))
        defer { close(fd) }
        try WakeOnLAN(mac: "01:02:03:04:05:06", broadcast: "127.0.0.1:\(port)").send()
        var buffer = [UInt8](repeating: 0, count: 200)
        let received = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(received == 102)
        #expect(Array(buffer.prefix(102)) == (try WakeOnLAN(mac: "010203040506")).packet)
    }

    @Test func magicPacketShape() throws {
        let packet = try WakeOnLAN(mac: "01:02:03:04:05:06").packet
        #expect(packet.count == 102)
        #expect(packet.prefix(6).allSatisfy { $0 == 0xFF })
        #expect(Array(packet[6..<12]) == [1, 2, 3, 4, 5, 6] && Array(packet[96..<102]) == [1, 2, 3, 4, 5, 6])
    }
}
